"""The program's settings of the run: glibc's allocator thresholds set at start (``hanafuda.cli``), and
nothing done elsewhere; the cyclic collector paused by the executor (``hanafuda.parallel``)."""

from __future__ import annotations

import ctypes
import os
import sys

import pytest
from hanafuda.cli import keep_freed_memory, main
from hanafuda.parallel import collector_paused


def _glibc() -> bool:
    try:
        return sys.platform.startswith("linux") and (os.confstr("CS_GNU_LIBC_VERSION") or "").startswith("glibc")
    except (ValueError, OSError):
        return False


def test_the_thresholds_are_set_under_glibc_and_setting_them_again_is_harmless() -> None:
    assert keep_freed_memory() is _glibc()
    assert keep_freed_memory() is _glibc()


def test_without_mallopt_nothing_is_done(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_libc(name: object) -> object:
        raise OSError("no C library here")

    monkeypatch.setattr(ctypes, "CDLL", no_libc)
    assert keep_freed_memory() is False


def test_not_glibc_nothing_is_done(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "confstr", lambda name: None)
    assert keep_freed_memory() is False
    monkeypatch.setattr(sys, "platform", "darwin")
    assert keep_freed_memory() is False


def test_the_program_sets_them_before_anything_else(monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    calls: list[str] = []

    def record() -> bool:
        calls.append("set")
        return True

    monkeypatch.setattr("hanafuda.cli.keep_freed_memory", record)
    assert main(["nosuchcommand"]) == 2
    assert calls == ["set"]
    capsys.readouterr()


def test_the_collector_is_paused_inside_and_as_it_was_after() -> None:
    import gc

    assert gc.isenabled()
    with collector_paused():
        assert not gc.isenabled()
        with collector_paused():  # nested: still off, and still off after the inner one
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()
    with pytest.raises(ValueError), collector_paused():
        raise ValueError("stopped inside")
    assert gc.isenabled()
    gc.disable()
    try:
        with collector_paused():
            pass
        assert not gc.isenabled()  # a program that had it off keeps it off
    finally:
        gc.enable()
