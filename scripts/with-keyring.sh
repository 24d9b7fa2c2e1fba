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
# The Secret Service, if it ends mid-run, is started again by D-Bus on the next call: as the
# system's service file starts it, the new daemon finds the login keyring locked and asks for its
# password in a prompt that cannot show here, and every keychain call after it times out (seen
# twice in full runs). This bus starts it unlocked with the same password instead.
bus_dir="$keyring_home/bus"
mkdir -p "$bus_dir/services"
cat >"$bus_dir/services/org.freedesktop.secrets.service" <<'SERVICE'
[D-BUS Service]
Name=org.freedesktop.secrets
Exec=/bin/sh -c "printf %s test-keyring | exec gnome-keyring-daemon --unlock --foreground --components=secrets"
SERVICE
cat >"$bus_dir/session.conf" <<CONF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <servicedir>$bus_dir/services</servicedir>
  <include>/usr/share/dbus-1/session.conf</include>
</busconfig>
CONF
# shellcheck disable=SC2016
HOME="$keyring_home" dbus-run-session --config-file="$bus_dir/session.conf" -- bash -c '
  echo -n test-keyring | gnome-keyring-daemon --unlock --components=secrets >/dev/null
  exec "$@"
' with-keyring "$@"
