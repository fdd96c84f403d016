#!/bin/sh
# `pgfacts` inside the image: the package from /opt/pgfacts on Debian's Python 3 packages.
PYTHONPATH=/opt/pgfacts/python exec python3 -m pgfacts "$@"
