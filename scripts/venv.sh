# Sourced by scripts/serve, scripts/test and scripts/lock: makes .venv (once) and installs into it
# the locked dependencies (requirements/LOCK.txt, hashes checked) and the project, editable.
# Usage: ensure_venv LOCK   e.g. ensure_venv test
# A stamp in .venv records what was installed from: while pyproject.toml, the lock file and the
# C source are unchanged nothing is installed, so a complete .venv starts without a package
# index. The test lock holds everything the server lock does, so a .venv installed for tests
# also serves.
ensure_venv() {
    local lock="$1"
    make_venv
    local installed
    for installed in "$lock" test; do
        [ "$(cat ".venv/installed-$installed" 2>/dev/null)" = "$(install_key "$installed")" ] \
            && return 0
    done
    rm -f .venv/installed-*
    .venv/bin/python -m pip install --quiet --disable-pip-version-check --require-hashes \
        -r "requirements/$lock.txt"
    .venv/bin/python -m pip install --quiet --disable-pip-version-check --no-deps -e .
    install_key "$lock" >".venv/installed-$lock"
}

make_venv() {
    local python="${PYTHON:-python3}"
    if [ ! -x .venv/bin/python ]; then
        if ! "$python" -m venv .venv; then
            # Debian and Ubuntu ship venv separately.
            run_as_root apt-get update
            run_as_root apt-get install -y python3-venv
            rm -rf .venv
            "$python" -m venv .venv
        fi
    fi
}

# What an install depends on: the project's metadata, the lock file and the C source the editable
# install compiles (service/bots/_playout.c: a change to it is built again).
install_key() {
    cat pyproject.toml "requirements/$1.txt" service/bots/_playout.c | sha256sum | cut -d' ' -f1
}

run_as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}
