"""The Jupyter kernel manager of the kernels that execute chapters (POSIX).

Guarantees:

- a chapter's kernel talks over local IPC sockets, not TCP, so ipykernel has no reason to
  print "Kernel is running over TCP without encryption" into the user's terminal;
- every kernel has sockets of its own (:func:`ipc_path`), so chapters run side by side
  (``compsem run-all --jobs``, ``compsem sweep``) never read each other's messages;
- a kernel is not interrupted (SIGINT) when it is shut down after its last cell, so it prints
  no "KeyboardInterrupt caught in kernel." either.

The last one overrides ``_async_interrupt_kernel``, a private method of jupyter_client's
``AsyncKernelManager``: ``shutdown_kernel`` calls it directly before its shutdown request, and
jupyter_client 8 has no public setting or hook to skip it (an ``interrupt_mode`` of
``message`` only makes ipykernel send itself the same SIGINT). pyproject.toml pins
jupyter-client below 9, and tests/test_run.py fails when the private method, or
``shutdown_kernel``'s call of it, disappears.
"""

from __future__ import annotations

import os
import tempfile
import uuid

from jupyter_client.manager import AsyncKernelManager
from traitlets import CaselessStrEnum, default


class IpcKernelManager(AsyncKernelManager):
    """jupyter_client's asynchronous kernel manager over IPC, without the interrupt at
    shutdown."""

    transport = CaselessStrEnum(["tcp", "ipc"], default_value="ipc", config=True)

    @default("ip")
    def _unique_ipc_path(self) -> str:
        return ipc_path()

    async def _async_interrupt_kernel(self) -> None:
        # jupyter_client interrupts (SIGINT) a kernel before its shutdown request, and a
        # kernel still handling a message then prints "KeyboardInterrupt caught in kernel."
        # into the user's terminal. A chapter's kernel is shut down after its last cell, so
        # the request alone is enough (SIGTERM and SIGKILL still follow if it does not exit).
        if self.shutting_down:
            return
        await super()._async_interrupt_kernel()


def kernel_transport() -> dict:
    """Keyword arguments for :func:`papermill.execute_notebook` that run the chapter's kernel
    with :class:`IpcKernelManager` where the platform has IPC sockets (POSIX); elsewhere
    papermill's default (TCP)."""
    return {"kernel_manager_class": IpcKernelManager} if os.name == "posix" else {}


def ipc_path() -> str:
    """A socket path prefix that no other kernel uses: jupyter_client's default for IPC is
    ``kernel-ipc`` in the working directory, so two chapters run at once (``run-all --jobs``,
    ``sweep``) would bind the same sockets and read each other's messages ("Invalid
    Signature"). Kept short: a Unix socket path has at most 107 bytes."""
    return os.path.join(tempfile.gettempdir(), f"compsem-kernel-{uuid.uuid4().hex[:16]}")
