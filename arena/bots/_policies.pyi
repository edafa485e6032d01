"""The house bots' rollout rule, compiled (``_policies.c``): a policy the compiled core plays."""

#: The rule's ``NimmtPolicy`` capsule (``arena/engine/_playout_core.h``).
RULE: object
