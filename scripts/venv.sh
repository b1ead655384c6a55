# Sourced by scripts/serve and scripts/test: makes .venv (once) and installs the project into it.
# Usage: ensure_venv [extras]   e.g. ensure_venv test
ensure_venv() {
    local extras="${1:-}"
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
    local target="."
    [ -n "$extras" ] && target=".[$extras]"
    .venv/bin/python -m pip install --quiet --disable-pip-version-check -e "$target"
}

run_as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}
