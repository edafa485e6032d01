"""Version against version: an owner's new version played against the active one on shared
duplicate deals, decided by a sequential probability ratio test (:mod:`arena.sprt`)."""
