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
tree=$(cd "$1" && pwd); lo=$2; hi=$3; script=$4; shift 4
here=$(cd "$(dirname "$0")" && pwd)
python=${PYTHON:-"$here/../.venv/bin/python"}
export PYTHONHASHSEED=0 PYTHONPATH="$tree/reference:$tree/spec"
"$python" "$here/$script" "$@" "$lo" > /dev/null
count() {  # prints: instructions, units (rounds, or the workload's own count), actions (or 0)
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$python" "$here/$script" "$@" 2>&1 |
    awk '/Collected/ {c = $4} /^rounds / {u = $2; a = $4} /^[0-9]+$/ {u = $1} END {print c, u, a + 0}'
}
read -r c1 u1 a1 < <(count "$@" "$lo")
read -r c2 u2 a2 < <(count "$@" "$hi")
per_action=""
if [ "$a2" -gt "$a1" ]; then per_action=", $(( (c2 - c1) / (a2 - a1) )) per action"; fi
echo "$script $* ($lo to $hi): $(( (c2 - c1) / (u2 - u1) )) per unit$per_action"
