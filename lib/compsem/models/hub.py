"""The Hugging Face hub: offline mode, reachability, the local cache and the message a user gets
when a hub model cannot be had. A leaf module: it loads no model.
"""

from __future__ import annotations

import functools
import os

from compsem.models.packaged import DESCRIPTIONS


def offline() -> bool:
    return os.environ.get("HF_HUB_OFFLINE", "").strip().lower() in {"1", "true", "yes", "on"}


@functools.cache
def hub_reachable(timeout: float = 2.0) -> bool:
    """Whether the Hugging Face hub answers a TCP connect (``HF_ENDPOINT`` or huggingface.co,
    port 443) within ``timeout`` seconds. Probed once per process: without network an
    uncached ``hf:`` model then fails in about a second instead of after minutes of retries."""
    import socket
    from urllib.parse import urlparse

    url = urlparse(os.environ.get("HF_ENDPOINT") or "https://huggingface.co")
    host, port = url.hostname or "huggingface.co", url.port or (80 if url.scheme == "http" else 443)
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return True
    except OSError:
        return False


def needs_network(hub_id: str, err: Exception | None = None) -> str:
    why = f" ({type(err).__name__}: {str(err).splitlines()[0] if str(err) else ''})" if err else ""
    return (
        f"the model 'hf:{hub_id}' is not in the local Hugging Face cache and needs network access "
        f"to the model hub{why}. Packaged alternatives that work offline: "
        f"{', '.join(DESCRIPTIONS)} (see compsem.models.available())."
    )


def hf_is_cached(hub_id: str) -> bool:
    """Whether a hub model is already in the local Hugging Face cache (no network used)."""
    from huggingface_hub import try_to_load_from_cache

    candidates = [hub_id] if "/" in hub_id else [hub_id, f"sentence-transformers/{hub_id}"]
    return any(isinstance(try_to_load_from_cache(c, "config.json"), str) for c in candidates)
