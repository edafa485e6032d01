"""Hostile fixture: on turn 2 of game 1, makes a 32-bit system call (``int 0x80``) from its
64-bit process, which the seccomp filter answers by killing the bot."""

import ctypes
import mmap

from arena.botkit import KitBot, run
from arena.engine.decisions import Decision, DecisionKind
from arena.engine.observation import Observation


def ia32_getpid() -> int:
    code = mmap.mmap(-1, 4096, prot=mmap.PROT_READ | mmap.PROT_WRITE | mmap.PROT_EXEC)
    code.write(b"\xb8" + (20).to_bytes(4, "little") + b"\xcd\x80\xc3")  # mov eax,20; int 0x80
    address = ctypes.addressof(ctypes.c_char.from_buffer(code))
    pid: int = ctypes.CFUNCTYPE(ctypes.c_int)(address)()
    return pid


class Ia32Call(KitBot):
    name = "ia32-call"

    def decide(self, view: Observation) -> Decision:
        if (
            self.info.game_id == "game-00001"
            and view.turn == 2
            and view.pending is not None
            and view.pending.kind is DecisionKind.TILE
        ):
            print("ia32-call: int 0x80", flush=True)
            print(f"ia32-call: survived, pid {ia32_getpid()}", flush=True)
        return self.rng.choice(view.legal)


if __name__ == "__main__":
    run(Ia32Call())
