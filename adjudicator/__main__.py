"""`python -m adjudicator` is the same as the `fluxx-judge` command."""

from adjudicator.cli import main

raise SystemExit(main())
