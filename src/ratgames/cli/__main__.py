"""``python -m ratgames.cli``: the ``ratgames`` command line."""

from . import main

if __name__ == "__main__":
    main()
