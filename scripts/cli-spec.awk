# cli-spec.awk -- a command's spec (tools/spec/NAME.txt) to the C header the
# command includes (build/gen/spec_NAME.h): its option table OPTS and its
# cli_spec SPEC (tools/common/cli.h).  POSIX awk; the Makefile runs
#   awk -f scripts/cli-spec.awk tools/spec/NAME.txt > build/gen/spec_NAME.h
# A malformed spec is an error "FILE:LINE: message" on stderr, exit status 1.
#
# The format, one directive a line ('#' starts a comment line outside text):
#   command NAME           the subcommand (NAME is the file's name)
#   usage TEXT             the usage line (after one space, as it is);
#                          several lines: one each
#   operands MIN MAX       operands allowed (MAX "any": no limit)
#   missing TEXT           the usage error when there are too few operands
#   operands-to-handler    also pass each operand to the option handler
#   about                  the prose after the usage line: text lines,
#   ...                    ended by a line holding only "."
#   .
#   option ID NAMES [ARG]  an option: ID one character (its id) or a C
#   ...                    name the command defines; NAMES its spellings,
#   .                      '|'-separated; ARG its value's name; then its
#                          help lines, ended by "."
#   alias ID NAMES [ARG]   an option accepted but not listed (no help lines)
#   epilog                 after the options (exit status, notes), ended by
#   ...                    "."
#   .
# Text lines are taken as they are (leading spaces kept, nothing escaped).

function fail(msg) {
    printf "%s:%d: %s\n", FILENAME, FNR, msg > "/dev/stderr"
    failed = 1
    exit 1
}

# s as the body of a C string literal: \ and " escaped, "??" broken so no
# trigraph forms.
function esc(s,    out, i, c, n) {
    out = ""
    n = length(s)
    for (i = 1; i <= n; i++) {
        c = substr(s, i, 1)
        if (c == "\\" || c == "\"") out = out "\\" c
        else if (c == "?" && substr(s, i + 1, 1) == "?") out = out "?\\"
        else out = out c
    }
    return out
}

# A text block as C literals, one a line; nl: every line ends in \n.
function literal(text, count, nl, indent,    i, out) {
    if (count == 0) return "\"\""
    out = ""
    for (i = 1; i <= count; i++) {
        if (i > 1) out = out "\n" indent
        out = out "\"" esc(text[i]) ((nl || i < count) ? "\\n" : "") "\""
    }
    return out
}

function once(what) {
    if (what in seen) fail("'" what "' given twice")
    seen[what] = 1
}

# The line after directive d and one space, as it is (a usage line's
# leading spaces align it under the first).
function verbatim(d) {
    if (substr($0, 1, length(d) + 1) != d " ") fail(d ": at the start of the line, then one space")
    return substr($0, length(d) + 2)
}

# The rest of the line after its first n words.
function rest(n,    s, i) {
    s = $0
    sub(/^[ \t]+/, "", s)
    for (i = 0; i < n; i++) {
        sub(/^[^ \t]+/, "", s)
        sub(/^[ \t]+/, "", s)
    }
    sub(/[ \t]+$/, "", s)
    return s
}

BEGIN {
    block = ""; n_opts = 0; n_usage = 0; to_fn = 0; failed = 0
    name = FILENAME
}

FNR == 1 {
    name = FILENAME
    sub(/.*\//, "", name)
    sub(/\.txt$/, "", name)
}

block != "" {
    if ($0 == ".") {
        if (block == "about") { n_about = n_text; for_about() }
        else if (block == "epilog") { n_epilog = n_text; for_epilog() }
        else { help_n[n_opts] = n_text; for_help() }
        block = ""
        next
    }
    text[++n_text] = $0
    next
}

/^[ \t]*(#|$)/ { next }

{
    d = $1
    if (d == "command") {
        once(d)
        if (NF != 2) fail("command: one NAME")
        if ($2 != name) fail("command '" $2 "' in a file named " name ".txt")
        cmd = $2
    } else if (d == "usage") {
        if (NF < 2) fail("usage: no text")
        usage[++n_usage] = verbatim(d)
    } else if (d == "operands") {
        once(d)
        if (NF != 3 || $2 !~ /^[0-9]+$/ || ($3 !~ /^[0-9]+$/ && $3 != "any"))
            fail("operands: MIN MAX (numbers; MAX may be 'any')")
        if ($3 != "any" && $3 + 0 < $2 + 0) fail("operands: MAX below MIN")
        min_pos = $2; max_pos = ($3 == "any") ? -1 : $3
    } else if (d == "missing") {
        once(d)
        if (NF < 2) fail("missing: no text")
        missing = verbatim(d)
    } else if (d == "operands-to-handler") {
        once(d)
        if (NF != 1) fail("operands-to-handler takes nothing")
        to_fn = 1
    } else if (d == "about" || d == "epilog") {
        once(d)
        if (NF != 1) fail(d ": its text goes on the lines after it")
        block = d; n_text = 0
    } else if (d == "option" || d == "alias") {
        if (NF < 3) fail(d ": ID and NAMES required (" d " ID NAMES [ARG])")
        id = $2
        if (length(id) == 1) {
            if (id == "'" || id == "\\") cid = "'\\" id "'"
            else cid = "'" id "'"
        } else if (id ~ /^[A-Za-z_][A-Za-z0-9_]*$/) cid = id
        else fail(d ": ID '" id "' is neither one character nor a C name")
        if (id in ids) fail(d ": id '" id "' already used on line " ids[id])
        ids[id] = FNR
        if ($3 !~ /^-/) fail(d ": NAMES '" $3 "' do not start with '-'")
        k = split($3, spell, "|")
        for (i = 1; i <= k; i++) {
            if (spell[i] !~ /^-/) fail(d ": spelling '" spell[i] "' does not start with '-'")
            if (spell[i] in spellings) fail(d ": " spell[i] " already spelled on line " spellings[spell[i]])
            spellings[spell[i]] = FNR
        }
        n_opts++
        opt_id[n_opts] = cid
        opt_names[n_opts] = $3
        opt_arg[n_opts] = rest(3)
        if (d == "option") { block = "help"; n_text = 0 }
        else help_n[n_opts] = -1
    } else fail("unknown directive '" d "'")
}

function for_about(    i) {
    for (i = 1; i <= n_text; i++) about[i] = text[i]
}
function for_epilog(    i) {
    for (i = 1; i <= n_text; i++) epilog[i] = text[i]
}
function for_help(    i) {
    for (i = 1; i <= n_text; i++) help[n_opts, i] = text[i]
}

END {
    if (failed) exit 1
    if (block != "") fail("the " block " text has no closing '.' line")
    if (cmd == "") fail("no 'command' line")
    if (n_usage == 0) fail("no 'usage' line")
    if (!("operands" in seen)) fail("no 'operands' line")
    printf "/* Generated by scripts/cli-spec.awk from %s: edit that file. */\n", FILENAME
    if (n_opts) {
        print "static const cli_opt OPTS[] = {"
        for (o = 1; o <= n_opts; o++) {
            arg = opt_arg[o] == "" ? "NULL" : "\"" esc(opt_arg[o]) "\""
            if (help_n[o] < 0) h = "NULL"
            else {
                for (i = 1; i <= help_n[o]; i++) t[i] = help[o, i]
                h = literal(t, help_n[o], 0, "     ")
            }
            printf "    {%s, \"%s\", %s,\n     %s},\n", opt_id[o], esc(opt_names[o]), arg, h
        }
        print "    {0},"
        print "};"
    }
    print "static const cli_spec SPEC = {"
    printf "    \"%s\",\n", esc(cmd)
    printf "    %s,\n", literal(usage, n_usage, 0, "    ")
    printf "    %s,\n", ("about" in seen) ? literal(about, n_about, 1, "    ") : "NULL"
    printf "    %s,\n", n_opts ? "OPTS" : "NULL"
    printf "    %s,\n", ("epilog" in seen) ? literal(epilog, n_epilog, 1, "    ") : "NULL"
    printf "    %d, %d, %s,\n", min_pos, max_pos, ("missing" in seen) ? "\"" esc(missing) "\"" : "NULL"
    printf "    %d,\n", to_fn
    print "};"
}
