#!/usr/bin/env bash
# Runs a command with a real, unlocked OS keychain.
# On Linux without a desktop session (CI, containers) it starts a private D-Bus session and
# gnome-keyring's Secret Service in a throw-away HOME, so the keychain binding talks to the real thing.
# macOS and Windows have their keychain already: the command runs as it is.
set -euo pipefail
if [[ "$(uname -s)" != "Linux" ]] || [[ -n "${DBUS_SESSION_BUS_ADDRESS:-}" && -z "${CI:-}" ]]; then
  exec "$@"
fi
for tool in dbus-run-session gnome-keyring-daemon; do
  if ! command -v "$tool" >/dev/null; then
    echo "with-keyring: '$tool' is missing. On Debian/Ubuntu: apt-get install gnome-keyring dbus-user-session dbus-x11" >&2
    exit 1
  fi
done
keyring_home="$(mktemp -d)"
trap 'rm -rf "$keyring_home"' EXIT
export KEYRING_TEST_HOME="$keyring_home"
# shellcheck disable=SC2016
HOME="$keyring_home" dbus-run-session -- bash -c '
  echo -n test-keyring | gnome-keyring-daemon --unlock --components=secrets >/dev/null
  exec "$@"
' with-keyring "$@"
