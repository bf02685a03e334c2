"""What both games share and neither owns: rule-variant flags, the play loop, policies, position documents."""
