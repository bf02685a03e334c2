"""`python -m fi_cli ...` is the same as `fi ...` (handy where `fi` is read as a shell keyword)."""

from .cli import main

main()
