# The static body of paycli's fish completion (src/cli/completion/fish.ts puts the generated data
# around it: __paycli_spec and __paycli_profile_names before, the `complete` lines after).
# shellcheck does not read fish; the syntax is checked with `fish --no-execute`
# (test/e2e/completion-lint.test.ts).

# Works out, from the words before the cursor, the command path (__paycli_path), how many
# positional arguments it has so far (__paycli_npos) and whether the word at the cursor is the
# value of a flag (__paycli_expect). Cached per command line.
function __paycli_state
    set -l line (commandline -cp)
    test "$line" = "$__paycli_line"; and return
    set -g __paycli_line $line
    set -g __paycli_path ''
    set -g __paycli_npos 0
    set -g __paycli_expect 0
    __paycli_spec ''
    for w in (commandline -opc)[2..-1]
        if test $__paycli_expect = 1
            set __paycli_expect 0
            continue
        end
        switch $w
            case '-*'
                if not string match -q -- '*=*' $w; and contains -- $w $__paycli_vflags
                    set __paycli_expect 1
                end
            case '*'
                if test $__paycli_npos = 0; and contains -- $w $__paycli_subs
                    set __paycli_path (string trim -- "$__paycli_path $w")
                    __paycli_spec $__paycli_path
                else
                    set __paycli_npos (math $__paycli_npos + 1)
                end
        end
    end
    if test -n "$__paycli_varg"; and test $__paycli_npos -gt $__paycli_varg
        set __paycli_npos $__paycli_varg
    end
end

# __paycli_at PATH [INDEX]: the cursor is in command PATH (and at its positional argument INDEX).
function __paycli_at
    __paycli_state
    test "$__paycli_path" = "$argv[1]"; or return 1
    set -q argv[2]; or return 0
    test $__paycli_expect = 0; or return 1
    test $__paycli_npos = $argv[2]
end

# The path of paycli's config file (as src/core/paths.ts computes it).
function __paycli_config_file
    if test -n "$PAYCLI_CONFIG_DIR"
        echo "$PAYCLI_CONFIG_DIR/config.json"
    else if test (uname -s 2>/dev/null) = Darwin
        echo "$HOME/Library/Preferences/paycli/config.json"
    else if test -n "$XDG_CONFIG_HOME"
        echo "$XDG_CONFIG_HOME/paycli/config.json"
    else
        echo "$HOME/.config/paycli/config.json"
    end
end

# The profile names in the config file, one a line.
function __paycli_profiles
    set -l f (__paycli_config_file)
    test -r "$f"; or return 0
    __paycli_profile_names "$f" 2>/dev/null
end

# __paycli_json_fields FIELD...: with the word at the cursor `--json=a,b,c`, the fields of the
# command's document that could come after `a,b,` (those not given yet), each as the whole word.
function __paycli_json_fields
    set -l tok (commandline -ct)
    string match -q -- '--json=*' $tok; or return 0
    set -l given (string split , -- (string replace -- '--json=' '' $tok))
    set -l prefix (string join , -- $given[1..-2])
    test -n "$prefix"; and set prefix "$prefix,"
    for f in $argv
        contains -- $f $given[1..-2]; and continue
        echo "--json=$prefix$f"
    end
end

complete -c paycli -e
complete -c paycli -f
