"""People: sign-up, log-in/out, and personal API tokens for scripts."""
