#!/usr/bin/env bash
# The man page documents what the executable says it can do: every command that
# `switchyard --help` lists has a section, `switchyard COMMAND --help` works, and every option
# either help text names appears in the matching part of the man page. Also: the page renders
# without groff warnings and carries the executable's version.
#
# Usage: check_manpage.sh SWITCHYARD_BINARY MAN_PAGE   (MAN_PAGE plain or .gz)
set -euo pipefail

bin=${1:?usage: check_manpage.sh SWITCHYARD_BINARY MAN_PAGE}
page=${2:?usage: check_manpage.sh SWITCHYARD_BINARY MAN_PAGE}
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

[ -x "$bin" ] || { echo "FAIL: $bin is not an executable" >&2; exit 1; }
[ -f "$page" ] || { echo "FAIL: no man page at $page" >&2; exit 1; }
export QT_QPA_PLATFORM=offscreen LC_ALL=C.UTF-8 LANG=C.UTF-8 LANGUAGE=

# The roff source with its escaped dashes made plain, so "\-\-config" reads "--config".
if [[ $page == *.gz ]]; then roff=$(gzip -dc "$page"); else roff=$(cat "$page"); fi
roff=${roff//\\-/-}

# The lines of one part of the page: from the heading matching $1 up to the next heading of
# the same or a higher level.
section() {
    awk -v start="$1" '
        $0 ~ start { on = 1; next }
        on && /^\.SH/ { exit }
        on && /^\.SS/ && start ~ /SS/ { exit }
        on { print }' <<<"$roff"
}

# The options a help text names: --long ones, and short ones like -h or -f.
# Whether text $2 names option $1 as a whole word (--limit is not named by --limitx).
names() {
    grep -qE -- "(^|[^a-z0-9-])$1([^a-z0-9-]|\$)" <<<"$2"
}

options_in() {
    grep -oE -- '(^|[^A-Za-z0-9-])--?[a-z][a-z0-9-]*' <<<"$1" | sed -E 's/^[^-]*//' | sort -u
}

help=$("$bin" --help) || fail "switchyard --help exited $?"
[[ $help == *"Usage: switchyard"* ]] || fail "switchyard --help prints no usage"

# The commands: the first word of each line under "Commands:" indented by two spaces.
commands=$(awk '/^Commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 }' <<<"$help")
[ -n "$commands" ] || fail "found no commands in switchyard --help"
echo "commands in --help:" $commands

options_part=$(section '^\.SH OPTIONS')
for option in $(options_in "$(awk '/^Commands:/ { exit } { print }' <<<"$help")"); do
    names "$option" "$options_part" || fail "option $option of switchyard --help is not in the man page's OPTIONS"
done

for command in $commands; do
    grep -qE "^\.SS $command( |$)" <<<"$roff" || { fail "command $command has no section in the man page"; continue; }
    grep -qE "^\.B $command$" <<<"$(section '^\.SH SYNOPSIS')" || fail "command $command is not in the man page's SYNOPSIS"
    if ! command_help=$("$bin" "$command" --help 2>&1); then
        fail "switchyard $command --help failed: $command_help"
        continue
    fi
    [[ $command_help == "Usage: switchyard $command"* ]] || fail "switchyard $command --help prints no usage: $command_help"
    part=$(section "^\\.SS $command( |\$)")
    for option in $(options_in "$command_help"); do
        # Every command takes --help; the page says so once, under OPTIONS.
        case $option in -h|--help) continue ;; esac
        names "$option" "$part" || fail "option $option of switchyard $command is not in the man page's $command section"
    done
done

version=$("$bin" --version)
grep -qF "\"${version}\"" <<<"$(grep '^\.TH' <<<"$roff")" \
    || fail "the man page's .TH line does not carry \"$version\": $(grep '^\.TH' <<<"$roff")"

# groff's own complaints (unknown macros, bad escapes) are bugs in the page.
if command -v groff >/dev/null; then
    warnings=$(groff -man -Tutf8 -ww -z <<<"$(if [[ $page == *.gz ]]; then gzip -dc "$page"; else cat "$page"; fi)" 2>&1 || true)
    [ -z "$warnings" ] || fail "groff warns about the man page: $warnings"
else
    echo "groff is not installed: the page was not rendered"
fi

if [ "$failures" -ne 0 ]; then
    echo "$failures problem(s) between switchyard's help and its man page" >&2
    exit 1
fi
echo "the man page documents every command and option of --help ($(wc -l <<<"$commands") commands)"
