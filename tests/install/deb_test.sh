#!/usr/bin/env bash
# Builds the .deb and .tar.gz with CPack, checks what they hold, installs the .deb system-wide
# with apt-get, runs what it installed (--version, check-config on the examples, the man page,
# systemd-analyze on the user units, a headless relay answering /health and /v1/models and
# stopping on SIGTERM), then purges it and checks that none of its files remain.
#
# Usage: deb_test.sh BUILD_DIR VERSION
# Needs root and Debian's apt; exits 77 (ctest: skipped) without them, saying why.
# Refuses to run while a switchyard package it did not install is installed.
set -euo pipefail

build=${1:?usage: deb_test.sh BUILD_DIR VERSION}
version=${2:?usage: deb_test.sh BUILD_DIR VERSION}
here=$(cd "$(dirname "$0")" && pwd)

step() { echo "== [${SECONDS}s] $*"; }
die() { echo "FAIL: $*" >&2; exit 1; }

if [ "$(id -u)" -ne 0 ]; then
    echo "SKIP: installing a .deb system-wide needs root (CI runs as root)"
    exit 77
fi
for tool in apt-get dpkg dpkg-deb dpkg-query cpack curl flock; do
    command -v "$tool" >/dev/null || { echo "SKIP: $tool is not installed (installer/deps-debian.sh)"; exit 77; }
done

# One run at a time on this machine, whichever build folder it comes from.
exec 9>/run/lock/switchyard-install-test.lock
flock -w 600 9 || die "another install test held /run/lock/switchyard-install-test.lock for 10 minutes"

# What this test installed, so that a run killed before its cleanup (ctest's timeout sends
# SIGKILL) is recognised and cleaned up by the next one, and nobody else's switchyard is removed.
marker_dir=/var/lib/switchyard-install-test
marker=$marker_dir/installed.md5sums.sha256
installed_status() { dpkg-query -W -f='${db:Status-Status}' switchyard 2>/dev/null || true; }
status=$(installed_status)
if [ -n "$status" ] && [ "$status" != not-installed ]; then
    ours=no
    if [ -f "$marker" ] && [ -f /var/lib/dpkg/info/switchyard.md5sums ] \
        && [ "$(sha256sum </var/lib/dpkg/info/switchyard.md5sums)" = "$(cat "$marker")" ]; then
        ours=yes
    fi
    if [ "$ours" = no ]; then
        die "a switchyard package ($(dpkg-query -W -f='${Version}' switchyard), status $status) is installed" \
            "that this test did not install; it will not replace or remove it." \
            "Remove it yourself (apt-get remove --purge switchyard) or run this test on another machine."
    fi
    step "purging the switchyard package a killed earlier run of this test left installed"
    DEBIAN_FRONTEND=noninteractive apt-get remove --purge -y -q switchyard
fi
rm -f "$marker"

tmp=$(mktemp -d /tmp/switchyard-install-test.XXXXXX)
installed=no
relay_pid=
cleanup() {
    local rc=$?
    if [ -n "$relay_pid" ] && kill -0 "$relay_pid" 2>/dev/null; then
        kill -KILL "$relay_pid" 2>/dev/null || true
    fi
    if [ "$installed" = yes ]; then
        echo "== cleanup: purging the package this test installed"
        DEBIAN_FRONTEND=noninteractive apt-get remove --purge -y -q switchyard >/dev/null || true
    fi
    rm -f "$marker"
    rmdir "$marker_dir" 2>/dev/null || true
    rm -rf "$tmp"
    exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

step "cpack: .deb and .tar.gz from $build"
started=$SECONDS
(cd "$tmp" && cpack --config "$build/CPackConfig.cmake" -G "DEB;TGZ" -B "$tmp/pkg" >"$tmp/cpack.log" 2>&1) \
    || { cat "$tmp/cpack.log" >&2; die "cpack failed"; }
echo "cpack took $((SECONDS - started)) s"
shopt -s nullglob
debs=("$tmp"/pkg/switchyard_*.deb)
tgzs=("$tmp"/pkg/switchyard-*.tar.gz)
shopt -u nullglob
[ ${#debs[@]} -eq 1 ] || die "expected one switchyard_*.deb, cpack made: $(ls "$tmp/pkg")"
[ ${#tgzs[@]} -eq 1 ] || die "expected one switchyard-*.tar.gz, cpack made: $(ls "$tmp/pkg")"
deb=${debs[0]}
tgz=${tgzs[0]}
echo "built $(basename "$deb") ($(du -k "$deb" | cut -f1) KiB) and $(basename "$tgz") ($(du -k "$tgz" | cut -f1) KiB)"

# Exactly these files, no test fakes, no benchmark client. The demo's simulated boxes are a helper
# of their own under libexec, which /usr/bin/switchyard --demo starts; the executable links no fake.
expected_files="\
./usr/bin/switchyard
./usr/lib/systemd/user/switchyard-agent.service
./usr/lib/systemd/user/switchyard.service
./usr/libexec/switchyard/switchyard-demo-fleet
./usr/share/applications/switchyard.desktop
./usr/share/doc/switchyard/CLIENTS.md
./usr/share/doc/switchyard/CODEX_PROMPT_NOTICE.md
./usr/share/doc/switchyard/CONFIG.md
./usr/share/doc/switchyard/HOSTS.md
./usr/share/doc/switchyard/README.md
./usr/share/icons/hicolor/scalable/apps/switchyard.svg
./usr/share/man/man1/switchyard.1.gz
./usr/share/switchyard/switchyard-agent.example.json
./usr/share/switchyard/switchyard.example.json"

step "dpkg-deb -I $(basename "$deb")"
dpkg-deb -I "$deb" | tee "$tmp/info"
field() { dpkg-deb -f "$deb" "$1"; }
[ "$(field Package)" = switchyard ] || die "Package is $(field Package), not switchyard"
[ "$(field Version)" = "$version" ] || die "Version is $(field Version), the project's is $version"
[ "$(field Architecture)" = "$(dpkg --print-architecture)" ] || die "Architecture is $(field Architecture)"
depends=$(field Depends)
dependency_names=$(tr ',' '\n' <<<"$depends" | sed -E 's/^ *//; s/[ (].*//')
# libqt6core6 and libc6 come only from shlibdeps; svg and sqlite only from our explicit list.
for dep in libc6 libstdc++6 libqt6core6 libqt6network6 libqt6sql6 libqt6widgets6 \
    libqt6gui6 libqt6svg6 libqt6sql6-sqlite; do
    grep -qxF "$dep" <<<"$dependency_names" || die "Depends lacks $dep: $depends"
done

step "dpkg-deb -c $(basename "$deb")"
dpkg-deb -c "$deb" | tee "$tmp/contents"
files=$(awk '$1 !~ /^d/ { print $6 }' "$tmp/contents" | sort)
[ "$files" = "$expected_files" ] || die "the .deb holds other files than expected:
$(diff <(echo "$expected_files") <(echo "$files") || true)"
bad_owner=$(awk '$2 != "root/root" { print $6 }' "$tmp/contents")
[ -z "$bad_owner" ] || die "not owned by root/root: $bad_owner"
grep -qE '^-rwxr-xr-x .* \./usr/bin/switchyard$' "$tmp/contents" || die "/usr/bin/switchyard is not mode 755"
grep -qE '^-rwxr-xr-x .* \./usr/libexec/switchyard/switchyard-demo-fleet$' "$tmp/contents" \
    || die "/usr/libexec/switchyard/switchyard-demo-fleet is not mode 755"

mkdir "$tmp/unpacked"
dpkg-deb -x "$deb" "$tmp/unpacked"
if command -v file >/dev/null; then
    file "$tmp/unpacked/usr/bin/switchyard" | tee "$tmp/file"
    grep -q ', stripped' "$tmp/file" || die "the packaged binary is not stripped"
    file "$tmp/unpacked/usr/libexec/switchyard/switchyard-demo-fleet" | tee "$tmp/file"
    grep -q ', stripped' "$tmp/file" || die "the packaged demo helper is not stripped"
fi

step "tar -tzf $(basename "$tgz")"
tar -tzf "$tgz" | tee "$tmp/tgz"
tgz_files=$(grep -v '/$' "$tmp/tgz" | sed -E 's|^[^/]+/|./usr/|' | sort)
[ "$tgz_files" = "$expected_files" ] || die "the .tar.gz holds other files than the .deb:
$(diff <(echo "$expected_files") <(echo "$tgz_files") || true)"

step "apt-get install $(basename "$deb")"
# Recorded before installing: dpkg keeps the package's md5sums as they are in the .deb.
mkdir -p "$marker_dir"
dpkg-deb --ctrl-tarfile "$deb" | tar -xO --wildcards "*md5sums" | sha256sum >"$marker"
installed=yes
DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$deb" \
    || die "apt-get install failed"
[ "$(installed_status)" = installed ] || die "dpkg says switchyard is $(installed_status) after apt-get install"
dpkg -L switchyard | sort >"$tmp/owned"
owned_files=$(while read -r path; do [ -d "$path" ] || echo "$path"; done <"$tmp/owned")

step "switchyard --version"
out=$(/usr/bin/switchyard --version)
echo "$out"
[ "$out" = "switchyard $version" ] || die "switchyard --version printed '$out', the package is $version"
[ "$(command -v switchyard)" = /usr/bin/switchyard ] || die "switchyard on PATH is $(command -v switchyard)"

step "switchyard check-config on the installed examples"
out=$(/usr/bin/switchyard check-config /usr/share/switchyard/switchyard.example.json)
echo "$out"
# Its first line says ok; the lines after it (each indented) say how each switching host schedules.
[[ ${out%%$'\n'*} == "/usr/share/switchyard/switchyard.example.json: ok ("*" hosts, "*" engines)" ]] \
    && ! grep -qv '^  ' <<< "$(tail -n +2 <<< "$out")" \
    || die "check-config of the relay example said: $out"
out=$(/usr/bin/switchyard check-config /usr/share/switchyard/switchyard-agent.example.json)
echo "$out"
[[ $out == "/usr/share/switchyard/switchyard-agent.example.json: ok (agent, "*" engines)" ]] \
    || die "check-config of the agent example said: $out"

step "the man page against the installed switchyard's help"
# Minimal container images tell dpkg to leave out man pages (path-exclude); check the packaged one.
if grep -qsE '^path-exclude=?[[:space:]]*/usr/share/man' /etc/dpkg/dpkg.cfg /etc/dpkg/dpkg.cfg.d/*; then
    echo "dpkg is configured to leave out /usr/share/man here: checking the page in the .deb instead"
else
    man -w switchyard | grep -qx /usr/share/man/man1/switchyard.1.gz \
        || die "man -w switchyard finds $(man -w switchyard 2>&1)"
fi
"$here/check_manpage.sh" /usr/bin/switchyard "$tmp/unpacked/usr/share/man/man1/switchyard.1.gz"

step "the desktop entry"
grep -qx 'Exec=switchyard' /usr/share/applications/switchyard.desktop || die "the desktop entry does not run switchyard"
grep -qx 'Icon=switchyard' /usr/share/applications/switchyard.desktop || die "the desktop entry does not name the switchyard icon"
if command -v desktop-file-validate >/dev/null; then
    desktop-file-validate /usr/share/applications/switchyard.desktop || die "desktop-file-validate rejects the entry"
    echo "desktop-file-validate: ok"
else
    echo "desktop-file-validate is not installed (desktop-file-utils): the entry was not validated"
fi

step "systemd-analyze verify on the user units"
for unit in switchyard.service switchyard-agent.service; do
    grep -qE '^KillMode=mixed$' "/usr/lib/systemd/user/$unit" || die "$unit does not stop its engines with it"
    grep -qE '^Restart=on-failure$' "/usr/lib/systemd/user/$unit" || die "$unit does not restart on failure"
done
grep -qx 'ExecStart=/usr/bin/switchyard --headless --config %E/switchyard/switchyard.json' \
    /usr/lib/systemd/user/switchyard.service || die "switchyard.service does not run the relay headless"
grep -qx 'ExecStart=/usr/bin/switchyard agent --config %E/switchyard/agent.json' \
    /usr/lib/systemd/user/switchyard-agent.service || die "switchyard-agent.service does not run the agent"
if command -v systemd-analyze >/dev/null; then
    # A user manager needs a runtime folder; in a container without a login session there is none.
    mkdir -m 700 "$tmp/runtime"
    if XDG_RUNTIME_DIR=$tmp/runtime HOME=$tmp systemd-analyze --user verify \
        /usr/lib/systemd/user/switchyard.service /usr/lib/systemd/user/switchyard-agent.service \
        >"$tmp/verify" 2>&1; then
        # It exits 0 on unknown keys and unparsable values, only saying so: any word is a failure.
        [ ! -s "$tmp/verify" ] || die "systemd-analyze --user verify complains: $(cat "$tmp/verify")"
        echo "systemd-analyze --user verify: ok, no complaints"
    elif grep -q 'Failed to initialize manager' "$tmp/verify"; then
        # Where no user manager can be set up at all (some containers), it checks nothing.
        cat "$tmp/verify"
        echo "systemd-analyze cannot start a user manager here: the units were NOT verified"
    else
        cat "$tmp/verify" >&2
        die "systemd-analyze --user verify rejects the units"
    fi
else
    echo "systemd-analyze is not installed (systemd): the units were not verified"
fi

step "switchyard --headless with the example config, on loopback"
mkdir "$tmp/home"
# Under timeout, so that it cannot outlive a run killed with SIGKILL by much; timeout passes our
# SIGTERM on to it and exits with its status.
HOME=$tmp/home XDG_CONFIG_HOME='' XDG_DATA_HOME='' XDG_STATE_HOME='' QT_QPA_PLATFORM=offscreen \
    timeout -s KILL 180 /usr/bin/switchyard --headless --config /usr/share/switchyard/switchyard.example.json \
    --listen 127.0.0.1:0 --data-dir "$tmp/data" >"$tmp/relay.out" 2>&1 &
relay_pid=$!
port=
for _ in $(seq 300); do
    port=$(grep -oE 'listening on http://127\.0\.0\.1:[0-9]+' "$tmp/relay.out" | grep -oE '[0-9]+$' || true)
    [ -n "$port" ] && break
    kill -0 "$relay_pid" 2>/dev/null || { cat "$tmp/relay.out" >&2; die "the relay exited before listening"; }
    sleep 0.1
done
[ -n "$port" ] || { cat "$tmp/relay.out" >&2; die "the relay did not say where it listens within 30 s"; }
health=$(curl -sS -m 20 -w ' %{http_code}' "http://127.0.0.1:$port/health")
echo "GET /health: $health"
[ "$health" = '{"status":"ok"} 200' ] || die "GET /health answered $health"
models=$(curl -sS -m 20 -w ' %{http_code}' "http://127.0.0.1:$port/v1/models")
echo "GET /v1/models: $models"
[[ $models == '{"data":['*'"3090-flint-40b"'*'"object":"list"} 200' ]] \
    || die "GET /v1/models does not list the example's 3090-flint-40b: $models"
kill -TERM "$relay_pid"
stopped=no
for _ in $(seq 600); do
    kill -0 "$relay_pid" 2>/dev/null || { stopped=yes; break; }
    sleep 0.1
done
[ "$stopped" = yes ] || { cat "$tmp/relay.out" >&2; die "the relay did not stop within 60 s of SIGTERM"; }
relay_rc=0
wait "$relay_pid" || relay_rc=$?
relay_pid=
cat "$tmp/relay.out"
[ "$relay_rc" -eq 0 ] || die "the relay exited $relay_rc after SIGTERM"
[ -f "$tmp/data/history.sqlite" ] || die "the relay kept no history in --data-dir"

step "switchyard --headless --demo: the installed relay finds its demo helper under libexec"
HOME=$tmp/home XDG_CONFIG_HOME='' XDG_DATA_HOME='' XDG_STATE_HOME='' QT_QPA_PLATFORM=offscreen \
    timeout -s KILL 180 /usr/bin/switchyard --headless --demo --listen 127.0.0.1:0 \
    --data-dir "$tmp/demo-data" >"$tmp/demo.out" 2>&1 &
relay_pid=$!
port=
for _ in $(seq 300); do
    port=$(grep -oE 'listening on http://127\.0\.0\.1:[0-9]+' "$tmp/demo.out" | grep -oE '[0-9]+$' || true)
    [ -n "$port" ] && break
    kill -0 "$relay_pid" 2>/dev/null || { cat "$tmp/demo.out" >&2; die "the demo relay exited before listening"; }
    sleep 0.1
done
[ -n "$port" ] || { cat "$tmp/demo.out" >&2; die "the demo relay did not say where it listens within 30 s"; }
models=$(curl -sS -m 20 "http://127.0.0.1:$port/v1/models")
[[ $models == *'"3090-qwen38-27b-128k"'* && $models == *'"3060-ember-14b"'* ]] \
    || { cat "$tmp/demo.out" >&2; die "GET /v1/models of the demo lacks its fork or its sleeper: $models"; }
pgrep -f /usr/libexec/switchyard/switchyard-demo-fleet >/dev/null || die "no switchyard-demo-fleet runs for the demo"
kill -TERM "$relay_pid"
wait "$relay_pid" || true
relay_pid=
for _ in $(seq 100); do
    pgrep -f /usr/libexec/switchyard/switchyard-demo-fleet >/dev/null || break
    sleep 0.1
done
! pgrep -f /usr/libexec/switchyard/switchyard-demo-fleet >/dev/null || die "switchyard-demo-fleet outlived the relay"
echo "the demo ran from the package, and its helper ended with it"

step "apt-get remove --purge switchyard"
DEBIAN_FRONTEND=noninteractive apt-get remove --purge -y -q switchyard || die "apt-get remove --purge failed"
installed=no
rm -f "$marker"
status=$(installed_status)
[ -z "$status" ] || [ "$status" = not-installed ] || die "dpkg says switchyard is $status after the purge"
left=$(while read -r path; do [ -e "$path" ] || [ -L "$path" ] && echo "$path"; done <<<"$owned_files" || true)
[ -z "$left" ] || die "files of the package remain after the purge: $left"
# Its folders go too, unless another package owns them as well (/usr/bin, /usr/share/man/man1).
while read -r path; do
    [ "$path" = /. ] && continue
    [ -d "$path" ] || continue
    dpkg -S "$path" >/dev/null 2>&1 || die "the folder $path remains after the purge, and no package owns it"
done <"$tmp/owned"
echo "removed: none of the $(wc -l <<<"$owned_files") files and none of the package's own folders remain"
echo "PASS"
