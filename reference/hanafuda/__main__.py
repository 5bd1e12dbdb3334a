from hanafuda.cli import main

raise SystemExit(main())
