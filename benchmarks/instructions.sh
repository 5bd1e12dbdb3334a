#!/usr/bin/env bash
# Machine instructions of one unit of a fixed workload, counted by valgrind's callgrind: the figure that
# stays the same run after run where timings on a shared machine do not. Runs `python benchmarks/SCRIPT
# ARGS... N` for N = LO and HI (after one run outside valgrind, which writes the byte-code caches) and
# divides the difference of the instructions by the difference of the units the workload prints, so that
# start-up cancels out. TREE is a checkout whose reference/ and spec/ go first on PYTHONPATH (`.` for this
# one; a `git worktree` of an older commit for a before-and-after).
#
#   benchmarks/instructions.sh TREE LO HI workload.py GAME play|apply   # per round and per action
#   benchmarks/instructions.sh TREE LO HI opcount.py validate GAME      # per action validated
#   benchmarks/instructions.sh TREE LO HI opcount.py score x            # per scoring
set -euo pipefail
if [ $# -lt 4 ]; then
  echo "usage: benchmarks/instructions.sh TREE LO HI SCRIPT [ARGS...]" >&2
  exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
if [ ! -d "$1/reference" ] || [ ! -d "$1/spec" ]; then
  echo "benchmarks/instructions.sh: TREE '$1' has no reference/ and spec/" >&2; exit 2
fi
if ! [[ "$2" =~ ^[0-9]+$ && "$3" =~ ^[0-9]+$ ]] || [ "$2" -ge "$3" ]; then
  echo "benchmarks/instructions.sh: LO and HI must be whole numbers, LO below HI (got '$2' '$3')" >&2; exit 2
fi
if [ ! -f "$here/$4" ]; then
  echo "benchmarks/instructions.sh: no script benchmarks/$4" >&2; exit 2
fi
tree=$(cd "$1" && pwd); lo=$2; hi=$3; script=$4; shift 4
python=${PYTHON:-"$here/../.venv/bin/python"}
export PYTHONHASHSEED=0 PYTHONPATH="$tree/reference:$tree/spec"
if ! err=$("$python" "$here/$script" "$@" "$lo" 2>&1 > /dev/null); then
  echo "benchmarks/instructions.sh: $script $* $lo failed: ${err##*$'\n'}" >&2; exit 2
fi
count() {  # prints: instructions, units (rounds, or the workload's own count), actions (or 0)
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$python" "$here/$script" "$@" 2>&1 |
    awk '/Collected/ {c = $4} /^rounds / {u = $2; a = $4} /^[0-9]+$/ {u = $1} END {print c, u, a + 0}'
}
read -r c1 u1 a1 < <(count "$@" "$lo")
read -r c2 u2 a2 < <(count "$@" "$hi")
if [ -z "${c1:-}" ] || [ -z "${c2:-}" ] || [ -z "${u1:-}" ] || [ "${u2:-0}" -le "${u1:-0}" ]; then
  echo "benchmarks/instructions.sh: no instruction count or no units printed (is valgrind installed?)" >&2; exit 2
fi
per_action=""
if [ "$a2" -gt "$a1" ]; then per_action=", $(( (c2 - c1) / (a2 - a1) )) per action"; fi
echo "$script $* ($lo to $hi): $(( (c2 - c1) / (u2 - u1) )) per unit$per_action"
