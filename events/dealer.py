"""Digital mode's secret: drawing a fair seed, committing to it, revealing it (README, "Deals").

The seed is always the server's: 256 bits from `secrets`. A client may add entropy of its
own (the `seed` of a new-game request, or `--seed`), which is hashed together with the
server's and can never replace it, so nobody — not the creator of a game, often a player —
can choose or guess the deals. `game_created` publishes a salted commitment and names the
scheme; `seed_revealed` publishes seed and salt when the game ends. What follows from a seed
(which dealer deals which event, checking a deal) is pure and lives in projections/chance.py.
"""

from __future__ import annotations

import hashlib
import os
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from projections.chance import CURRENT_SCHEME, commitment

Entropy = Callable[[int], bytes]

#: tests only: makes the server's randomness a function of this text, so a test's deals
#: follow from the seed it sends (never set it for real play: anyone who knows the text
#: can compute every deal; `chronicle serve` warns when it is set)
FIXED_ENTROPY_ENV = "CHRONICLE_UNSAFE_FIXED_ENTROPY"


def server_entropy(n: int) -> bytes:
    """n random bytes from `secrets` (or, in tests, from FIXED_ENTROPY_ENV)."""
    fixed = os.environ.get(FIXED_ENTROPY_ENV)
    if fixed:
        return hashlib.shake_256(f"{fixed}|{n}".encode()).digest(n)
    return secrets.token_bytes(n)


@dataclass(frozen=True, slots=True)
class Secret:
    """A digital game's seed and the salt of its commitment (None for scheme 1 games)."""

    seed: str
    salt: str | None = None

    @property
    def scheme(self) -> int:
        """Scheme 1 games (created before salts) have none; every new game is scheme 2."""
        return 1 if self.salt is None else CURRENT_SCHEME


def draw_secret(client_entropy: str | None = None,
                entropy: Entropy = server_entropy) -> Secret:
    """A fresh seed from the server's randomness, mixed with the client's if it gave any."""
    server = entropy(32)
    if client_entropy:
        seed = hashlib.sha256(server + b"\x00" + client_entropy.encode("utf-8")).hexdigest()
    else:
        seed = server.hex()
    return Secret(seed, entropy(16).hex())


def committed(secret: Secret) -> dict[str, Any]:
    """The fields `game_created` carries for a new digital game."""
    return {"seed_commitment": commitment(secret.seed, secret.salt, CURRENT_SCHEME),
            "seed_scheme": CURRENT_SCHEME}


def reveal(secret: Secret) -> dict[str, Any]:
    """The data of `seed_revealed`: the seed, and under scheme 2 its salt."""
    if secret.scheme == 1:
        return {"seed": secret.seed}
    return {"seed": secret.seed, "salt": secret.salt}
