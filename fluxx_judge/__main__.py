"""`python -m fluxx_judge` is the `fluxx-judge` command."""

from fluxx_judge.cli import main

raise SystemExit(main())
