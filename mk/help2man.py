#!/usr/bin/env python3
"""Writes a man page on stdout: a hand-written template (docs/man/*.1.in) with @VERSION@ and
@HELP@ replaced, @HELP@ by the program's own --help turned into roff, so that every option the
program lists is in its page (tests/install/man.sh checks both ways).

usage: mk/help2man.py PROGRAM TEMPLATE VERSION

mtemu's --help becomes .TP entries, one per option line, under .SS headings for its sections.
For metatrace, whose --help lists subcommands, each subcommand gets an .SS with its own
`metatrace CMD --help`, kept as preformatted text (free-form prose with option lists)."""
import re
import subprocess
import sys


def esc(text):
    """roff-safe text: backslashes, hyphens of options, a leading dot or quote."""
    text = text.replace('\\', '\\e').replace('-', '\\-')
    if text[:1] in ('.', "'"):
        text = '\\&' + text
    return text


def help_of(argv):
    out = subprocess.run(argv, capture_output=True, text=True, check=False)
    if out.returncode != 0 or not out.stdout:
        sys.exit(f'help2man: {" ".join(argv)} failed (exit {out.returncode}): {out.stderr.strip()}')
    return out.stdout


def options_roff(text):
    """An option list: '  -x, --xx ARG    what' lines, deeper-indented continuations,
    unindented 'Heading:' lines as .SS, other lines as text."""
    out, prose = [], False  # prose: the last line was free text (the next one continues it)
    for line in text.splitlines():
        if line.startswith('usage:'):
            continue  # the template has its own SYNOPSIS
        m = re.match(r'^ {1,4}(-\S.*?)(?: {2,}(.*))?$', line)
        if m:
            out += ['.TP', '.B ' + esc(m.group(1).strip())]
            if m.group(2):
                out.append(esc(m.group(2).strip()))
            prose = False
        elif re.match(r'^ {5,}\S', line):
            out.append(esc(line.strip()))
        elif line and not line[0].isspace() and line.rstrip().endswith(':'):
            out += ['.SS ' + esc(line.rstrip()[:-1])]
            prose = False
        elif line.strip():
            out += ([] if prose else ['.PP']) + [esc(line.strip())]
            prose = True
        else:
            prose = False
    return out


def commands_roff(prog, text):
    out = []
    for line in text.splitlines():
        m = re.match(r'^  ([a-z][a-z0-9-]*)\s{2,}(.*)$', line)
        if not m:
            continue
        cmd, what = m.groups()
        out += ['.SS ' + esc(f'metatrace {cmd}'), esc(what) + '.', '.PP', '.nf']
        out += [esc(l) if l.strip() else '' for l in help_of([prog, cmd, '--help']).rstrip().splitlines()]
        out += ['.fi']
    if not out:
        sys.exit(f'help2man: {prog} --help lists no command')
    return out


def main():
    prog, template, version = sys.argv[1:4]
    text = help_of([prog, '--help'])
    body = commands_roff(prog, text) if 'metatrace <command>' in text else options_roff(text)
    page = open(template, encoding='utf-8').read()
    if '@HELP@' not in page:
        sys.exit(f'help2man: {template}: no @HELP@ line')
    page = page.replace('@VERSION@', version).replace('@HELP@', '\n'.join(body))
    sys.stdout.write(page)


main()
