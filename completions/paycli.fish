# fish completion for paycli. Generated from paycli's command tree by src/completion/
# (`paycli completion fish`; in the repository, `npm run completions`). Do not edit.
# Completing commands and flags runs nothing but the shell; profile names are read from the
# config file with awk. Regenerate after upgrading paycli.
# Install: paycli completion fish > ~/.config/fish/completions/paycli.fish

# Sets __paycli_subs (subcommands), __paycli_vflags (flags that take a value) and __paycli_varg
# (index of a variadic last argument, if any) for a command path.
function __paycli_spec
    set -g __paycli_subs
    set -g __paycli_vflags
    set -g __paycli_varg ''
    switch $argv[1]
        case ''
            set -g __paycli_subs 'cashin' 'cashout' 'config' 'auth' 'sandbox' 'history' 'status' 'balance' 'reconcile' 'listen' 'brcode' 'completion' 'help'
            set -g __paycli_vflags '--profile' '--base-url' '--timeout' '--lang'
            set -g __paycli_varg ''
        case 'cashin'
            set -g __paycli_subs
            set -g __paycli_vflags '--value' '--amount' '--payer-name' '--payer-document' '--payer-email' '--payer-phone' '--product-name' '--product-description' '--postback-url' '--split' '--order-id' '--input' '--qr-file' '--batch' '--batch-format' '--qr-dir' '--concurrency' '--rate' '--results' '--profile' '--base-url' '--timeout' '--lang'
            set -g __paycli_varg ''
        case 'cashout'
            set -g __paycli_subs
            set -g __paycli_vflags '--value' '--amount' '--pix-key-type' '--pix-key' '--cpf-cnpj' '--person-name' '--person-email' '--person-phone' '--order-id' '--postback-url' '--input' '--batch' '--batch-format' '--concurrency' '--rate' '--results' '--profile' '--base-url' '--timeout' '--lang'
            set -g __paycli_varg ''
        case 'config'
            set -g __paycli_subs 'set' 'get' 'unset' 'list' 'profiles' 'path'
            set -g __paycli_vflags '--profile' '--base-url' '--timeout' '--lang'
            set -g __paycli_varg ''
        case 'config set'
            set -g __paycli_subs
            set -g __paycli_vflags '--profile' '--base-url' '--timeout' '--lang'
            set -g __paycli_varg ''
        case 'config get'
            set -g __paycli_subs
            set -g __paycli_vflags '--profile' '--base-url' '--timeout' '--lang'
            set -g __paycli_varg ''
        case 'config unset'
            set -g __paycli_subs
            set -g __paycli_vflags '--profile' '--base-url' '--timeout' '--lang'
            set -g __paycli_varg ''
        case 'config list'
            set -g __paycli_subs
            set -g __paycli_vflags '--profile' '--base-url' '--timeout' '--lang'
            set -g __paycli_varg ''
        case 'config profiles'
            set -g __paycli_subs
            set -g __paycli_vflags '--profile' '--base-url' '--timeout' '--lang'
            set -g __paycli_varg ''
        case 'config path'
            set -g __paycli_subs
            set -g __paycli_vflags '--profile' '--base-url' '--timeout' '--lang'
            set -g __paycli_varg ''
        case 'auth'
            set -g __paycli_subs 'login' 'status' 'logout'
            set -g __paycli_vflags '--profile' '--base-url' '--timeout' '--lang'
            set -g __paycli_varg ''
        case 'auth login'
            set -g __paycli_subs
            set -g __paycli_vflags '--profile' '--base-url' '--timeout' '--lang'
            set -g __paycli_varg ''
        case 'auth status'
            set -g __paycli_subs
            set -g __paycli_vflags '--profile' '--base-url' '--timeout' '--lang'
            set -g __paycli_varg ''
        case 'auth logout'
            set -g __paycli_subs
            set -g __paycli_vflags '--profile' '--base-url' '--timeout' '--lang'
            set -g __paycli_varg ''
        case 'sandbox'
            set -g __paycli_subs 'pay' 'fail' 'cancel' 'refund' 'infraction' 'ping' 'events' 'resend'
            set -g __paycli_vflags '--port' '--host' '--api-key' '--postback-secret' '--auto-pay' '--webhook-url' '--drop-after-create' '--retry-for' '--retry-schedule' '--data-dir' '--keep-events' '--profile' '--base-url' '--timeout' '--lang'
            set -g __paycli_varg ''
        case 'sandbox pay'
            set -g __paycli_subs
            set -g __paycli_vflags '--sandbox-url' '--api-key' '--port' '--host' '--postback-secret' '--auto-pay' '--webhook-url' '--drop-after-create' '--retry-for' '--retry-schedule' '--data-dir' '--keep-events' '--profile' '--base-url' '--timeout' '--lang'
            set -g __paycli_varg ''
        case 'sandbox fail'
            set -g __paycli_subs
            set -g __paycli_vflags '--sandbox-url' '--api-key' '--port' '--host' '--postback-secret' '--auto-pay' '--webhook-url' '--drop-after-create' '--retry-for' '--retry-schedule' '--data-dir' '--keep-events' '--profile' '--base-url' '--timeout' '--lang'
            set -g __paycli_varg ''
        case 'sandbox cancel'
            set -g __paycli_subs
            set -g __paycli_vflags '--sandbox-url' '--api-key' '--port' '--host' '--postback-secret' '--auto-pay' '--webhook-url' '--drop-after-create' '--retry-for' '--retry-schedule' '--data-dir' '--keep-events' '--profile' '--base-url' '--timeout' '--lang'
            set -g __paycli_varg ''
        case 'sandbox refund'
            set -g __paycli_subs
            set -g __paycli_vflags '--sandbox-url' '--api-key' '--port' '--host' '--postback-secret' '--auto-pay' '--webhook-url' '--drop-after-create' '--retry-for' '--retry-schedule' '--data-dir' '--keep-events' '--profile' '--base-url' '--timeout' '--lang'
            set -g __paycli_varg ''
        case 'sandbox infraction'
            set -g __paycli_subs
            set -g __paycli_vflags '--sandbox-url' '--api-key' '--port' '--host' '--postback-secret' '--auto-pay' '--webhook-url' '--drop-after-create' '--retry-for' '--retry-schedule' '--data-dir' '--keep-events' '--profile' '--base-url' '--timeout' '--lang'
            set -g __paycli_varg ''
        case 'sandbox ping'
            set -g __paycli_subs
            set -g __paycli_vflags '--sandbox-url' '--api-key' '--port' '--host' '--postback-secret' '--auto-pay' '--webhook-url' '--drop-after-create' '--retry-for' '--retry-schedule' '--data-dir' '--keep-events' '--profile' '--base-url' '--timeout' '--lang'
            set -g __paycli_varg ''
        case 'sandbox events'
            set -g __paycli_subs
            set -g __paycli_vflags '--transaction' '--limit' '--sandbox-url' '--api-key' '--port' '--host' '--postback-secret' '--auto-pay' '--webhook-url' '--drop-after-create' '--retry-for' '--retry-schedule' '--data-dir' '--keep-events' '--profile' '--base-url' '--timeout' '--lang'
            set -g __paycli_varg ''
        case 'sandbox resend'
            set -g __paycli_subs
            set -g __paycli_vflags '--sandbox-url' '--api-key' '--port' '--host' '--postback-secret' '--auto-pay' '--webhook-url' '--drop-after-create' '--retry-for' '--retry-schedule' '--data-dir' '--keep-events' '--profile' '--base-url' '--timeout' '--lang'
            set -g __paycli_varg ''
        case 'history'
            set -g __paycli_subs 'resolve'
            set -g __paycli_vflags '--since' '--until' '--kind' '--outcome' '--order-id' '--by' '--limit' '--format' '--profile' '--base-url' '--timeout' '--lang'
            set -g __paycli_varg ''
        case 'history resolve'
            set -g __paycli_subs
            set -g __paycli_vflags '--outcome' '--note' '--since' '--until' '--kind' '--order-id' '--by' '--limit' '--format' '--profile' '--base-url' '--timeout' '--lang'
            set -g __paycli_varg ''
        case 'status'
            set -g __paycli_subs
            set -g __paycli_vflags '--order-id' '--profile' '--base-url' '--timeout' '--lang'
            set -g __paycli_varg ''
        case 'balance'
            set -g __paycli_subs
            set -g __paycli_vflags '--profile' '--base-url' '--timeout' '--lang'
            set -g __paycli_varg ''
        case 'reconcile'
            set -g __paycli_subs
            set -g __paycli_vflags '--since' '--profile' '--base-url' '--timeout' '--lang'
            set -g __paycli_varg ''
        case 'listen'
            set -g __paycli_subs
            set -g __paycli_vflags '--port' '--host' '--forward-to' '--secret' '--profile' '--base-url' '--timeout' '--lang'
            set -g __paycli_varg ''
        case 'brcode'
            set -g __paycli_subs 'decode' 'qr' 'create'
            set -g __paycli_vflags '--profile' '--base-url' '--timeout' '--lang'
            set -g __paycli_varg ''
        case 'brcode decode'
            set -g __paycli_subs
            set -g __paycli_vflags '--image' '--profile' '--base-url' '--timeout' '--lang'
            set -g __paycli_varg ''
        case 'brcode qr'
            set -g __paycli_subs
            set -g __paycli_vflags '--png' '--svg' '--profile' '--base-url' '--timeout' '--lang'
            set -g __paycli_varg ''
        case 'brcode create'
            set -g __paycli_subs
            set -g __paycli_vflags '--key' '--key-type' '--value' '--amount' '--name' '--city' '--txid' '--info' '--png' '--profile' '--base-url' '--timeout' '--lang'
            set -g __paycli_varg ''
        case 'completion'
            set -g __paycli_subs
            set -g __paycli_vflags '--profile' '--base-url' '--timeout' '--lang'
            set -g __paycli_varg ''
        case 'help'
            set -g __paycli_subs
            set -g __paycli_vflags '--profile' '--base-url' '--timeout' '--lang'
            set -g __paycli_varg '0'
    end
end

# __paycli_profile_names FILE: the profile names in a paycli config file, one a line.
function __paycli_profile_names
    awk '{ s = s $0 "\\n" }
END {
  n = length(s); depth = 0; instr = 0; esc = 0; key = 0; pend = 0; inprof = 0
  for (i = 1; i <= n; i++) {
    c = substr(s, i, 1)
    if (instr) {
      if (esc) { tok = tok c; esc = 0 }
      else if (c == "\\\\") esc = 1
      else if (c == "\\"") { instr = 0; key = 1 }
      else tok = tok c
      continue
    }
    if (c == "\\"") { instr = 1; tok = ""; key = 0; pend = 0; continue }
    if (c == " " || c == "\\t" || c == "\\n" || c == "\\r") continue
    if (c == ":") { if (key && depth == 1 && tok == "profiles") pend = 1; else if (key && inprof && depth == 2) print tok; key = 0; continue }
    if (c == "{" || c == "[") { depth++; if (pend && c == "{" && depth == 2) inprof = 1; pend = 0; key = 0; continue }
    if (c == "}" || c == "]") { depth--; if (depth < 2) inprof = 0; pend = 0; key = 0; continue }
    key = 0; pend = 0
  }
}
' $argv[1]
end

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

complete -c paycli -e
complete -c paycli -f

# paycli
complete -c paycli -n '__paycli_at \'\' 0' -a 'cashin' -d 'create a PIX cash-in: the gateway answers with a BR Code (QR code) for the payer to pay'
complete -c paycli -n '__paycli_at \'\' 0' -a 'cashout' -d 'send a PIX cash-out (a payout) to a PIX key; asks for confirmation, or --yes'
complete -c paycli -n '__paycli_at \'\' 0' -a 'config' -d 'read and change settings, per profile (--profile or PAYCLI_PROFILE)'
complete -c paycli -n '__paycli_at \'\' 0' -a 'auth' -d 'log a profile in to its gateway: the API key checked, and kept in the system keychain'
complete -c paycli -n '__paycli_at \'\' 0' -a 'sandbox' -d 'run the built-in sandbox gateway standalone (no money moves), for other programs and tests'
complete -c paycli -n '__paycli_at \'\' 0' -a 'history' -d 'list the cash-ins and cash-outs this machine sent (newest first), from the local ledger'
complete -c paycli -n '__paycli_at \'\' 0' -a 'status' -d 'ask the gateway about one transaction, by its id or by your order reference (beyond the interface)'
complete -c paycli -n '__paycli_at \'\' 0' -a 'balance' -d 'show the account\'s balance at the gateway (beyond the interface)'
complete -c paycli -n '__paycli_at \'\' 0' -a 'reconcile' -d 'settle every payment whose outcome is unknown by asking the gateway for its order reference'
complete -c paycli -n '__paycli_at \'\' 0' -a 'listen' -d 'receive postbacks (payment notifications), print each one, optionally forward them to your app'
complete -c paycli -n '__paycli_at \'\' 0' -a 'brcode' -d 'inspect, draw and create PIX BR Codes ("copia e cola" / QR code payloads)'
complete -c paycli -n '__paycli_at \'\' 0' -a 'completion' -d 'print the shell completion script for bash, zsh or fish'
complete -c paycli -n '__paycli_at \'\' 0' -a 'help' -d 'show the help of a command, e.g. paycli help config set; `paycli help examples` prints where the example files are'
complete -c paycli -n '__paycli_at \'\'' -s V -l version -d 'print the version (with --verbose: also Node, the SQLite driver, and where the ledger, config and cache are)'
complete -c paycli -n '__paycli_at \'\'' -l json -d 'print the result as one JSON document on stdout (errors as JSON on stderr)'
complete -c paycli -n '__paycli_at \'\'' -l profile -x -a '(__paycli_profiles)' -d 'config profile to use (env PAYCLI_PROFILE; default "default")'
complete -c paycli -n '__paycli_at \'\'' -l base-url -x -d 'gateway base URL, or "sandbox" (env PAYCLI_BASE_URL)'
complete -c paycli -n '__paycli_at \'\'' -l timeout -x -d 'request timeout in milliseconds (default 30000)'
complete -c paycli -n '__paycli_at \'\'' -l verbose -d 'trace the request and response on stderr (credential redacted)'
complete -c paycli -n '__paycli_at \'\'' -l no-color -d 'no colour (also NO_COLOR=1)'
complete -c paycli -n '__paycli_at \'\'' -l no-input -d 'never prompt; fail on missing fields (also PAYCLI_NO_INPUT=1)'
complete -c paycli -n '__paycli_at \'\'' -l allow-insecure-http -d 'allow a plain http:// base URL to a non-loopback host'
complete -c paycli -n '__paycli_at \'\'' -l lang -x -a 'pt-BR en' -d 'language of messages and help: pt-BR or en (default: config key lang, then LC_ALL/LC_MESSAGES/LANG)'
complete -c paycli -n '__paycli_at \'\'' -s h -l help -d 'show help'

# paycli cashin
complete -c paycli -n '__paycli_at \'cashin\'' -l value -x -d 'amount in cents (1000 = R$ 10,00)'
complete -c paycli -n '__paycli_at \'cashin\'' -l amount -x -d 'amount in reais instead of --value: 15, 15,50, 1.234,56'
complete -c paycli -n '__paycli_at \'cashin\'' -l payer-name -x -d 'payer\'s name'
complete -c paycli -n '__paycli_at \'cashin\'' -l payer-document -x -d 'payer\'s CPF or CNPJ (punctuation allowed; alphanumeric CNPJ too)'
complete -c paycli -n '__paycli_at \'cashin\'' -l payer-email -x -d 'payer\'s e-mail'
complete -c paycli -n '__paycli_at \'cashin\'' -l payer-phone -x -d 'payer\'s phone with DDD, e.g. 11987654321'
complete -c paycli -n '__paycli_at \'cashin\'' -l product-name -x -d 'name of the product or service'
complete -c paycli -n '__paycli_at \'cashin\'' -l product-description -x -d 'description of the product or service'
complete -c paycli -n '__paycli_at \'cashin\'' -l postback-url -x -d 'URL that receives the notification when the cash-in changes state'
complete -c paycli -n '__paycli_at \'cashin\'' -l split -x -d 'give part of the amount to another client (repeatable)'
complete -c paycli -n '__paycli_at \'cashin\'' -l order-id -x -d 'your order reference, sent as orderId (default: a new paycli-<ULID>; config key order-id)'
complete -c paycli -n '__paycli_at \'cashin\'' -l input -r -F -d 'read the request body (interface field names) from a JSON file, or - for stdin; flags override it'
complete -c paycli -n '__paycli_at \'cashin\'' -l dry-run -d 'validate and print the request that would be sent, without sending it'
complete -c paycli -n '__paycli_at \'cashin\'' -l qr -d 'draw the QR code in the terminal even when stdout is not a terminal'
complete -c paycli -n '__paycli_at \'cashin\'' -l no-qr -d 'never draw the QR code'
complete -c paycli -n '__paycli_at \'cashin\'' -l qr-file -r -F -d 'write the QR code image (PNG) to this file'
complete -c paycli -n '__paycli_at \'cashin\'' -l batch -x -d 'create one cash-in per row of a CSV or JSON Lines file, or - for stdin (docs/batch-runs.md)'
complete -c paycli -n '__paycli_at \'cashin\'' -l batch-format -x -d 'format of the --batch file when its name does not say: csv or jsonl'
complete -c paycli -n '__paycli_at \'cashin\'' -l qr-dir -x -d 'with --batch: write each QR code image (PNG) into this folder'
complete -c paycli -n '__paycli_at \'cashin\'' -l concurrency -x -d 'with --batch: requests in flight at once, 1-32 (default 4)'
complete -c paycli -n '__paycli_at \'cashin\'' -l rate -x -d 'with --batch: start at most this many requests per second'
complete -c paycli -n '__paycli_at \'cashin\'' -l results -x -d 'with --batch: write the results here, .csv or .jsonl (default <file>.results.csv; never overwritten)'
complete -c paycli -n '__paycli_at \'cashin\'' -l retry-refused -d 'with --batch: send again the rows an earlier run of the same file saw refused'
complete -c paycli -n '__paycli_at \'cashin\'' -l wait -d 'with --batch: when another run of the same file at the same gateway is still running (or stopped), wait for it to end, then continue (default: exit 2, batch_running)'
complete -c paycli -n '__paycli_at \'cashin\'' -l allow-duplicate -d 'with --batch: allow two identical rows'
complete -c paycli -n '__paycli_at \'cashin\'' -s y -l yes -d 'with --batch: do not ask for confirmation (required when not in a terminal)'
complete -c paycli -n '__paycli_at \'cashin\'' -s h -l help -d 'show help'
complete -c paycli -n '__paycli_at \'cashin\'' -s V -l version -d 'print the version (with --verbose: also Node, the SQLite driver, and where the ledger, config and cache are)'
complete -c paycli -n '__paycli_at \'cashin\'' -l json -d 'print the result as one JSON document on stdout (errors as JSON on stderr)'
complete -c paycli -n '__paycli_at \'cashin\'' -l profile -x -a '(__paycli_profiles)' -d 'config profile to use (env PAYCLI_PROFILE; default "default")'
complete -c paycli -n '__paycli_at \'cashin\'' -l base-url -x -d 'gateway base URL, or "sandbox" (env PAYCLI_BASE_URL)'
complete -c paycli -n '__paycli_at \'cashin\'' -l timeout -x -d 'request timeout in milliseconds (default 30000)'
complete -c paycli -n '__paycli_at \'cashin\'' -l verbose -d 'trace the request and response on stderr (credential redacted)'
complete -c paycli -n '__paycli_at \'cashin\'' -l no-color -d 'no colour (also NO_COLOR=1)'
complete -c paycli -n '__paycli_at \'cashin\'' -l no-input -d 'never prompt; fail on missing fields (also PAYCLI_NO_INPUT=1)'
complete -c paycli -n '__paycli_at \'cashin\'' -l allow-insecure-http -d 'allow a plain http:// base URL to a non-loopback host'
complete -c paycli -n '__paycli_at \'cashin\'' -l lang -x -a 'pt-BR en' -d 'language of messages and help: pt-BR or en (default: config key lang, then LC_ALL/LC_MESSAGES/LANG)'

# paycli cashout
complete -c paycli -n '__paycli_at \'cashout\'' -l value -x -d 'amount in cents (1000 = R$ 10,00)'
complete -c paycli -n '__paycli_at \'cashout\'' -l amount -x -d 'amount in reais instead of --value: 15, 15,50, 1.234,56'
complete -c paycli -n '__paycli_at \'cashout\'' -l pix-key-type -x -a 'cpf cnpj email phone random' -d 'type of the PIX key (also the interface and DICT names: TELEFONE, RANDOM_KEY, EVP, PHONE, or 0-4)'
complete -c paycli -n '__paycli_at \'cashout\'' -l pix-key -x -d 'the destination PIX key'
complete -c paycli -n '__paycli_at \'cashout\'' -l cpf-cnpj -x -d 'CPF or CNPJ of the key owner (optional)'
complete -c paycli -n '__paycli_at \'cashout\'' -l person-name -x -d 'recipient\'s name'
complete -c paycli -n '__paycli_at \'cashout\'' -l person-email -x -d 'recipient\'s e-mail'
complete -c paycli -n '__paycli_at \'cashout\'' -l person-phone -x -d 'recipient\'s phone with DDD, e.g. 11987654321'
complete -c paycli -n '__paycli_at \'cashout\'' -l order-id -x -d 'your order reference, sent as orderId (default: a new paycli-<ULID>; config key order-id); the gateway is asked for it first, so a retry sends nothing'
complete -c paycli -n '__paycli_at \'cashout\'' -l postback-url -x -d 'URL the gateway notifies when the cash-out changes state (postbackUrl; beyond the interface)'
complete -c paycli -n '__paycli_at \'cashout\'' -l input -r -F -d 'read the request body (interface field names) from a JSON file, or - for stdin; flags override it'
complete -c paycli -n '__paycli_at \'cashout\'' -l dry-run -d 'validate and print the request that would be sent, without sending it'
complete -c paycli -n '__paycli_at \'cashout\'' -s y -l yes -d 'do not ask for confirmation (required when not in a terminal)'
complete -c paycli -n '__paycli_at \'cashout\'' -l allow-duplicate -d 'send even if an identical cash-out is in the ledger (ok within duplicate-window, or its outcome unknown); recorded as such (with --batch: identical rows too)'
complete -c paycli -n '__paycli_at \'cashout\'' -l batch -x -d 'send one cash-out per row of a CSV or JSON Lines file, or - for stdin (docs/batch-runs.md)'
complete -c paycli -n '__paycli_at \'cashout\'' -l batch-format -x -d 'format of the --batch file when its name does not say: csv or jsonl'
complete -c paycli -n '__paycli_at \'cashout\'' -l concurrency -x -d 'with --batch: requests in flight at once, 1-32 (default 4)'
complete -c paycli -n '__paycli_at \'cashout\'' -l rate -x -d 'with --batch: start at most this many requests per second'
complete -c paycli -n '__paycli_at \'cashout\'' -l results -x -d 'with --batch: write the results here, .csv or .jsonl (default <file>.results.csv; never overwritten)'
complete -c paycli -n '__paycli_at \'cashout\'' -l retry-refused -d 'with --batch: send again the rows an earlier run of the same file saw refused'
complete -c paycli -n '__paycli_at \'cashout\'' -l wait -d 'with --batch: when another run of the same file at the same gateway is still running (or stopped), wait for it to end, then continue (default: exit 2, batch_running)'
complete -c paycli -n '__paycli_at \'cashout\'' -s h -l help -d 'show help'
complete -c paycli -n '__paycli_at \'cashout\'' -s V -l version -d 'print the version (with --verbose: also Node, the SQLite driver, and where the ledger, config and cache are)'
complete -c paycli -n '__paycli_at \'cashout\'' -l json -d 'print the result as one JSON document on stdout (errors as JSON on stderr)'
complete -c paycli -n '__paycli_at \'cashout\'' -l profile -x -a '(__paycli_profiles)' -d 'config profile to use (env PAYCLI_PROFILE; default "default")'
complete -c paycli -n '__paycli_at \'cashout\'' -l base-url -x -d 'gateway base URL, or "sandbox" (env PAYCLI_BASE_URL)'
complete -c paycli -n '__paycli_at \'cashout\'' -l timeout -x -d 'request timeout in milliseconds (default 30000)'
complete -c paycli -n '__paycli_at \'cashout\'' -l verbose -d 'trace the request and response on stderr (credential redacted)'
complete -c paycli -n '__paycli_at \'cashout\'' -l no-color -d 'no colour (also NO_COLOR=1)'
complete -c paycli -n '__paycli_at \'cashout\'' -l no-input -d 'never prompt; fail on missing fields (also PAYCLI_NO_INPUT=1)'
complete -c paycli -n '__paycli_at \'cashout\'' -l allow-insecure-http -d 'allow a plain http:// base URL to a non-loopback host'
complete -c paycli -n '__paycli_at \'cashout\'' -l lang -x -a 'pt-BR en' -d 'language of messages and help: pt-BR or en (default: config key lang, then LC_ALL/LC_MESSAGES/LANG)'

# paycli config
complete -c paycli -n '__paycli_at \'config\' 0' -a 'set' -d 'set a key; a secret (api-key, header.<Name>) with no value is read from a hidden prompt or stdin'
complete -c paycli -n '__paycli_at \'config\' 0' -a 'get' -d 'print a key (secrets masked)'
complete -c paycli -n '__paycli_at \'config\' 0' -a 'unset' -d 'remove a key'
complete -c paycli -n '__paycli_at \'config\' 0' -a 'list' -d 'list the keys of the profile (secrets masked)'
complete -c paycli -n '__paycli_at \'config\' 0' -a 'profiles' -d 'list the configured profiles, with the gateway host each one sends to'
complete -c paycli -n '__paycli_at \'config\' 0' -a 'path' -d 'print the path of the config file'
complete -c paycli -n '__paycli_at \'config\'' -s h -l help -d 'show help'
complete -c paycli -n '__paycli_at \'config\'' -s V -l version -d 'print the version (with --verbose: also Node, the SQLite driver, and where the ledger, config and cache are)'
complete -c paycli -n '__paycli_at \'config\'' -l json -d 'print the result as one JSON document on stdout (errors as JSON on stderr)'
complete -c paycli -n '__paycli_at \'config\'' -l profile -x -a '(__paycli_profiles)' -d 'config profile to use (env PAYCLI_PROFILE; default "default")'
complete -c paycli -n '__paycli_at \'config\'' -l base-url -x -d 'gateway base URL, or "sandbox" (env PAYCLI_BASE_URL)'
complete -c paycli -n '__paycli_at \'config\'' -l timeout -x -d 'request timeout in milliseconds (default 30000)'
complete -c paycli -n '__paycli_at \'config\'' -l verbose -d 'trace the request and response on stderr (credential redacted)'
complete -c paycli -n '__paycli_at \'config\'' -l no-color -d 'no colour (also NO_COLOR=1)'
complete -c paycli -n '__paycli_at \'config\'' -l no-input -d 'never prompt; fail on missing fields (also PAYCLI_NO_INPUT=1)'
complete -c paycli -n '__paycli_at \'config\'' -l allow-insecure-http -d 'allow a plain http:// base URL to a non-loopback host'
complete -c paycli -n '__paycli_at \'config\'' -l lang -x -a 'pt-BR en' -d 'language of messages and help: pt-BR or en (default: config key lang, then LC_ALL/LC_MESSAGES/LANG)'

# paycli config set
complete -c paycli -n '__paycli_at \'config set\' 0' -a 'base-url' -d 'gateway base URL for both operations, or "sandbox" (default: sandbox)'
complete -c paycli -n '__paycli_at \'config set\' 0' -a 'cashin-base-url' -d 'base URL for cash-ins only (gateways that serve them from another host)'
complete -c paycli -n '__paycli_at \'config set\' 0' -a 'cashout-base-url' -d 'base URL for cash-outs only'
complete -c paycli -n '__paycli_at \'config set\' 0' -a 'api-key' -d 'the gateway API key, sent as "Authorization: Bearer <key>"'
complete -c paycli -n '__paycli_at \'config set\' 0' -a 'api-key-store' -d 'keychain: the API key is in the system keychain (set by paycli auth login; removed by auth logout)'
complete -c paycli -n '__paycli_at \'config set\' 0' -a 'auth-header' -d 'send the API key raw under this header instead of Authorization: Bearer'
complete -c paycli -n '__paycli_at \'config set\' 0' -a 'allow-insecure-http' -d 'true: this profile may send to a plain http:// base URL off loopback (set with base-url and --allow-insecure-http)'
complete -c paycli -n '__paycli_at \'config set\' 0' -a 'lang' -d 'language of messages and help: pt-BR or en (default: LC_ALL/LC_MESSAGES/LANG; --lang overrides it)'
complete -c paycli -n '__paycli_at \'config set\' 0' -a 'timeout' -d 'request timeout in milliseconds (default 30000)'
complete -c paycli -n '__paycli_at \'config set\' 0' -a 'settle-after' -d 'how long past a payment\'s deadline a lookup\'s "not found" still proves nothing (default 2m; e.g. 90s, 5m)'
complete -c paycli -n '__paycli_at \'config set\' 0' -a 'duplicate-window' -d 'minutes within which an identical cash-out is refused (default 10; 0 = off; an unknown outcome blocks until resolved)'
complete -c paycli -n '__paycli_at \'config set\' 0' -a 'order-id' -d 'auto (default): give every payment without --order-id a reference paycli-<ULID>; off: send orderId only when given'
complete -c paycli -n '__paycli_at \'config set\' 0' -a 'lookup' -d 'auto (default): ask the gateway by orderId before a cash-out and after an unknown outcome; off: never'
complete -c paycli -n '__paycli_at \'config set\' 0' -a 'lookup-base-url' -d 'base URL for status, balance and lookups (default: base-url)'
complete -c paycli -n '__paycli_at \'config set\' 0' -a 'status-path' -d 'lookup path by transaction id (default /transaction/get/by/id/{transactionId})'
complete -c paycli -n '__paycli_at \'config set\' 0' -a 'status-by-order-path' -d 'lookup path by order reference (default /transaction/get/by/orderId/{orderId})'
complete -c paycli -n '__paycli_at \'config set\' 0' -a 'balance-path' -d 'balance path (default /transaction/get/balance)'
complete -c paycli -n '__paycli_at \'config set\' 0' -a 'header.' -d 'an extra static header: header.<Name>'
complete -c paycli -n '__paycli_at \'config set\'' -l create -d 'make the profile named by --profile when it does not exist yet (else a typo is exit 2, nothing changed)'
complete -c paycli -n '__paycli_at \'config set\'' -s h -l help -d 'show help'
complete -c paycli -n '__paycli_at \'config set\'' -s V -l version -d 'print the version (with --verbose: also Node, the SQLite driver, and where the ledger, config and cache are)'
complete -c paycli -n '__paycli_at \'config set\'' -l json -d 'print the result as one JSON document on stdout (errors as JSON on stderr)'
complete -c paycli -n '__paycli_at \'config set\'' -l profile -x -a '(__paycli_profiles)' -d 'config profile to use (env PAYCLI_PROFILE; default "default")'
complete -c paycli -n '__paycli_at \'config set\'' -l base-url -x -d 'gateway base URL, or "sandbox" (env PAYCLI_BASE_URL)'
complete -c paycli -n '__paycli_at \'config set\'' -l timeout -x -d 'request timeout in milliseconds (default 30000)'
complete -c paycli -n '__paycli_at \'config set\'' -l verbose -d 'trace the request and response on stderr (credential redacted)'
complete -c paycli -n '__paycli_at \'config set\'' -l no-color -d 'no colour (also NO_COLOR=1)'
complete -c paycli -n '__paycli_at \'config set\'' -l no-input -d 'never prompt; fail on missing fields (also PAYCLI_NO_INPUT=1)'
complete -c paycli -n '__paycli_at \'config set\'' -l allow-insecure-http -d 'allow a plain http:// base URL to a non-loopback host'
complete -c paycli -n '__paycli_at \'config set\'' -l lang -x -a 'pt-BR en' -d 'language of messages and help: pt-BR or en (default: config key lang, then LC_ALL/LC_MESSAGES/LANG)'

# paycli config get
complete -c paycli -n '__paycli_at \'config get\' 0' -a 'base-url' -d 'gateway base URL for both operations, or "sandbox" (default: sandbox)'
complete -c paycli -n '__paycli_at \'config get\' 0' -a 'cashin-base-url' -d 'base URL for cash-ins only (gateways that serve them from another host)'
complete -c paycli -n '__paycli_at \'config get\' 0' -a 'cashout-base-url' -d 'base URL for cash-outs only'
complete -c paycli -n '__paycli_at \'config get\' 0' -a 'api-key' -d 'the gateway API key, sent as "Authorization: Bearer <key>"'
complete -c paycli -n '__paycli_at \'config get\' 0' -a 'api-key-store' -d 'keychain: the API key is in the system keychain (set by paycli auth login; removed by auth logout)'
complete -c paycli -n '__paycli_at \'config get\' 0' -a 'auth-header' -d 'send the API key raw under this header instead of Authorization: Bearer'
complete -c paycli -n '__paycli_at \'config get\' 0' -a 'allow-insecure-http' -d 'true: this profile may send to a plain http:// base URL off loopback (set with base-url and --allow-insecure-http)'
complete -c paycli -n '__paycli_at \'config get\' 0' -a 'lang' -d 'language of messages and help: pt-BR or en (default: LC_ALL/LC_MESSAGES/LANG; --lang overrides it)'
complete -c paycli -n '__paycli_at \'config get\' 0' -a 'timeout' -d 'request timeout in milliseconds (default 30000)'
complete -c paycli -n '__paycli_at \'config get\' 0' -a 'settle-after' -d 'how long past a payment\'s deadline a lookup\'s "not found" still proves nothing (default 2m; e.g. 90s, 5m)'
complete -c paycli -n '__paycli_at \'config get\' 0' -a 'duplicate-window' -d 'minutes within which an identical cash-out is refused (default 10; 0 = off; an unknown outcome blocks until resolved)'
complete -c paycli -n '__paycli_at \'config get\' 0' -a 'order-id' -d 'auto (default): give every payment without --order-id a reference paycli-<ULID>; off: send orderId only when given'
complete -c paycli -n '__paycli_at \'config get\' 0' -a 'lookup' -d 'auto (default): ask the gateway by orderId before a cash-out and after an unknown outcome; off: never'
complete -c paycli -n '__paycli_at \'config get\' 0' -a 'lookup-base-url' -d 'base URL for status, balance and lookups (default: base-url)'
complete -c paycli -n '__paycli_at \'config get\' 0' -a 'status-path' -d 'lookup path by transaction id (default /transaction/get/by/id/{transactionId})'
complete -c paycli -n '__paycli_at \'config get\' 0' -a 'status-by-order-path' -d 'lookup path by order reference (default /transaction/get/by/orderId/{orderId})'
complete -c paycli -n '__paycli_at \'config get\' 0' -a 'balance-path' -d 'balance path (default /transaction/get/balance)'
complete -c paycli -n '__paycli_at \'config get\' 0' -a 'header.' -d 'an extra static header: header.<Name>'
complete -c paycli -n '__paycli_at \'config get\'' -s h -l help -d 'show help'
complete -c paycli -n '__paycli_at \'config get\'' -s V -l version -d 'print the version (with --verbose: also Node, the SQLite driver, and where the ledger, config and cache are)'
complete -c paycli -n '__paycli_at \'config get\'' -l json -d 'print the result as one JSON document on stdout (errors as JSON on stderr)'
complete -c paycli -n '__paycli_at \'config get\'' -l profile -x -a '(__paycli_profiles)' -d 'config profile to use (env PAYCLI_PROFILE; default "default")'
complete -c paycli -n '__paycli_at \'config get\'' -l base-url -x -d 'gateway base URL, or "sandbox" (env PAYCLI_BASE_URL)'
complete -c paycli -n '__paycli_at \'config get\'' -l timeout -x -d 'request timeout in milliseconds (default 30000)'
complete -c paycli -n '__paycli_at \'config get\'' -l verbose -d 'trace the request and response on stderr (credential redacted)'
complete -c paycli -n '__paycli_at \'config get\'' -l no-color -d 'no colour (also NO_COLOR=1)'
complete -c paycli -n '__paycli_at \'config get\'' -l no-input -d 'never prompt; fail on missing fields (also PAYCLI_NO_INPUT=1)'
complete -c paycli -n '__paycli_at \'config get\'' -l allow-insecure-http -d 'allow a plain http:// base URL to a non-loopback host'
complete -c paycli -n '__paycli_at \'config get\'' -l lang -x -a 'pt-BR en' -d 'language of messages and help: pt-BR or en (default: config key lang, then LC_ALL/LC_MESSAGES/LANG)'

# paycli config unset
complete -c paycli -n '__paycli_at \'config unset\' 0' -a 'base-url' -d 'gateway base URL for both operations, or "sandbox" (default: sandbox)'
complete -c paycli -n '__paycli_at \'config unset\' 0' -a 'cashin-base-url' -d 'base URL for cash-ins only (gateways that serve them from another host)'
complete -c paycli -n '__paycli_at \'config unset\' 0' -a 'cashout-base-url' -d 'base URL for cash-outs only'
complete -c paycli -n '__paycli_at \'config unset\' 0' -a 'api-key' -d 'the gateway API key, sent as "Authorization: Bearer <key>"'
complete -c paycli -n '__paycli_at \'config unset\' 0' -a 'api-key-store' -d 'keychain: the API key is in the system keychain (set by paycli auth login; removed by auth logout)'
complete -c paycli -n '__paycli_at \'config unset\' 0' -a 'auth-header' -d 'send the API key raw under this header instead of Authorization: Bearer'
complete -c paycli -n '__paycli_at \'config unset\' 0' -a 'allow-insecure-http' -d 'true: this profile may send to a plain http:// base URL off loopback (set with base-url and --allow-insecure-http)'
complete -c paycli -n '__paycli_at \'config unset\' 0' -a 'lang' -d 'language of messages and help: pt-BR or en (default: LC_ALL/LC_MESSAGES/LANG; --lang overrides it)'
complete -c paycli -n '__paycli_at \'config unset\' 0' -a 'timeout' -d 'request timeout in milliseconds (default 30000)'
complete -c paycli -n '__paycli_at \'config unset\' 0' -a 'settle-after' -d 'how long past a payment\'s deadline a lookup\'s "not found" still proves nothing (default 2m; e.g. 90s, 5m)'
complete -c paycli -n '__paycli_at \'config unset\' 0' -a 'duplicate-window' -d 'minutes within which an identical cash-out is refused (default 10; 0 = off; an unknown outcome blocks until resolved)'
complete -c paycli -n '__paycli_at \'config unset\' 0' -a 'order-id' -d 'auto (default): give every payment without --order-id a reference paycli-<ULID>; off: send orderId only when given'
complete -c paycli -n '__paycli_at \'config unset\' 0' -a 'lookup' -d 'auto (default): ask the gateway by orderId before a cash-out and after an unknown outcome; off: never'
complete -c paycli -n '__paycli_at \'config unset\' 0' -a 'lookup-base-url' -d 'base URL for status, balance and lookups (default: base-url)'
complete -c paycli -n '__paycli_at \'config unset\' 0' -a 'status-path' -d 'lookup path by transaction id (default /transaction/get/by/id/{transactionId})'
complete -c paycli -n '__paycli_at \'config unset\' 0' -a 'status-by-order-path' -d 'lookup path by order reference (default /transaction/get/by/orderId/{orderId})'
complete -c paycli -n '__paycli_at \'config unset\' 0' -a 'balance-path' -d 'balance path (default /transaction/get/balance)'
complete -c paycli -n '__paycli_at \'config unset\' 0' -a 'header.' -d 'an extra static header: header.<Name>'
complete -c paycli -n '__paycli_at \'config unset\'' -s h -l help -d 'show help'
complete -c paycli -n '__paycli_at \'config unset\'' -s V -l version -d 'print the version (with --verbose: also Node, the SQLite driver, and where the ledger, config and cache are)'
complete -c paycli -n '__paycli_at \'config unset\'' -l json -d 'print the result as one JSON document on stdout (errors as JSON on stderr)'
complete -c paycli -n '__paycli_at \'config unset\'' -l profile -x -a '(__paycli_profiles)' -d 'config profile to use (env PAYCLI_PROFILE; default "default")'
complete -c paycli -n '__paycli_at \'config unset\'' -l base-url -x -d 'gateway base URL, or "sandbox" (env PAYCLI_BASE_URL)'
complete -c paycli -n '__paycli_at \'config unset\'' -l timeout -x -d 'request timeout in milliseconds (default 30000)'
complete -c paycli -n '__paycli_at \'config unset\'' -l verbose -d 'trace the request and response on stderr (credential redacted)'
complete -c paycli -n '__paycli_at \'config unset\'' -l no-color -d 'no colour (also NO_COLOR=1)'
complete -c paycli -n '__paycli_at \'config unset\'' -l no-input -d 'never prompt; fail on missing fields (also PAYCLI_NO_INPUT=1)'
complete -c paycli -n '__paycli_at \'config unset\'' -l allow-insecure-http -d 'allow a plain http:// base URL to a non-loopback host'
complete -c paycli -n '__paycli_at \'config unset\'' -l lang -x -a 'pt-BR en' -d 'language of messages and help: pt-BR or en (default: config key lang, then LC_ALL/LC_MESSAGES/LANG)'

# paycli config list
complete -c paycli -n '__paycli_at \'config list\'' -s h -l help -d 'show help'
complete -c paycli -n '__paycli_at \'config list\'' -s V -l version -d 'print the version (with --verbose: also Node, the SQLite driver, and where the ledger, config and cache are)'
complete -c paycli -n '__paycli_at \'config list\'' -l json -d 'print the result as one JSON document on stdout (errors as JSON on stderr)'
complete -c paycli -n '__paycli_at \'config list\'' -l profile -x -a '(__paycli_profiles)' -d 'config profile to use (env PAYCLI_PROFILE; default "default")'
complete -c paycli -n '__paycli_at \'config list\'' -l base-url -x -d 'gateway base URL, or "sandbox" (env PAYCLI_BASE_URL)'
complete -c paycli -n '__paycli_at \'config list\'' -l timeout -x -d 'request timeout in milliseconds (default 30000)'
complete -c paycli -n '__paycli_at \'config list\'' -l verbose -d 'trace the request and response on stderr (credential redacted)'
complete -c paycli -n '__paycli_at \'config list\'' -l no-color -d 'no colour (also NO_COLOR=1)'
complete -c paycli -n '__paycli_at \'config list\'' -l no-input -d 'never prompt; fail on missing fields (also PAYCLI_NO_INPUT=1)'
complete -c paycli -n '__paycli_at \'config list\'' -l allow-insecure-http -d 'allow a plain http:// base URL to a non-loopback host'
complete -c paycli -n '__paycli_at \'config list\'' -l lang -x -a 'pt-BR en' -d 'language of messages and help: pt-BR or en (default: config key lang, then LC_ALL/LC_MESSAGES/LANG)'

# paycli config profiles
complete -c paycli -n '__paycli_at \'config profiles\'' -s h -l help -d 'show help'
complete -c paycli -n '__paycli_at \'config profiles\'' -s V -l version -d 'print the version (with --verbose: also Node, the SQLite driver, and where the ledger, config and cache are)'
complete -c paycli -n '__paycli_at \'config profiles\'' -l json -d 'print the result as one JSON document on stdout (errors as JSON on stderr)'
complete -c paycli -n '__paycli_at \'config profiles\'' -l profile -x -a '(__paycli_profiles)' -d 'config profile to use (env PAYCLI_PROFILE; default "default")'
complete -c paycli -n '__paycli_at \'config profiles\'' -l base-url -x -d 'gateway base URL, or "sandbox" (env PAYCLI_BASE_URL)'
complete -c paycli -n '__paycli_at \'config profiles\'' -l timeout -x -d 'request timeout in milliseconds (default 30000)'
complete -c paycli -n '__paycli_at \'config profiles\'' -l verbose -d 'trace the request and response on stderr (credential redacted)'
complete -c paycli -n '__paycli_at \'config profiles\'' -l no-color -d 'no colour (also NO_COLOR=1)'
complete -c paycli -n '__paycli_at \'config profiles\'' -l no-input -d 'never prompt; fail on missing fields (also PAYCLI_NO_INPUT=1)'
complete -c paycli -n '__paycli_at \'config profiles\'' -l allow-insecure-http -d 'allow a plain http:// base URL to a non-loopback host'
complete -c paycli -n '__paycli_at \'config profiles\'' -l lang -x -a 'pt-BR en' -d 'language of messages and help: pt-BR or en (default: config key lang, then LC_ALL/LC_MESSAGES/LANG)'

# paycli config path
complete -c paycli -n '__paycli_at \'config path\'' -s h -l help -d 'show help'
complete -c paycli -n '__paycli_at \'config path\'' -s V -l version -d 'print the version (with --verbose: also Node, the SQLite driver, and where the ledger, config and cache are)'
complete -c paycli -n '__paycli_at \'config path\'' -l json -d 'print the result as one JSON document on stdout (errors as JSON on stderr)'
complete -c paycli -n '__paycli_at \'config path\'' -l profile -x -a '(__paycli_profiles)' -d 'config profile to use (env PAYCLI_PROFILE; default "default")'
complete -c paycli -n '__paycli_at \'config path\'' -l base-url -x -d 'gateway base URL, or "sandbox" (env PAYCLI_BASE_URL)'
complete -c paycli -n '__paycli_at \'config path\'' -l timeout -x -d 'request timeout in milliseconds (default 30000)'
complete -c paycli -n '__paycli_at \'config path\'' -l verbose -d 'trace the request and response on stderr (credential redacted)'
complete -c paycli -n '__paycli_at \'config path\'' -l no-color -d 'no colour (also NO_COLOR=1)'
complete -c paycli -n '__paycli_at \'config path\'' -l no-input -d 'never prompt; fail on missing fields (also PAYCLI_NO_INPUT=1)'
complete -c paycli -n '__paycli_at \'config path\'' -l allow-insecure-http -d 'allow a plain http:// base URL to a non-loopback host'
complete -c paycli -n '__paycli_at \'config path\'' -l lang -x -a 'pt-BR en' -d 'language of messages and help: pt-BR or en (default: config key lang, then LC_ALL/LC_MESSAGES/LANG)'

# paycli auth
complete -c paycli -n '__paycli_at \'auth\' 0' -a 'login' -d 'ask for the API key (hidden; or read it from stdin), check it against the gateway, keep it in the keychain (else the config file)'
complete -c paycli -n '__paycli_at \'auth\' 0' -a 'status' -d 'show the profile, its gateway, where its key is kept, the key masked, and whether the gateway accepts it'
complete -c paycli -n '__paycli_at \'auth\' 0' -a 'logout' -d 'remove the profile\'s API key from the keychain and the config file'
complete -c paycli -n '__paycli_at \'auth\'' -s h -l help -d 'show help'
complete -c paycli -n '__paycli_at \'auth\'' -s V -l version -d 'print the version (with --verbose: also Node, the SQLite driver, and where the ledger, config and cache are)'
complete -c paycli -n '__paycli_at \'auth\'' -l json -d 'print the result as one JSON document on stdout (errors as JSON on stderr)'
complete -c paycli -n '__paycli_at \'auth\'' -l profile -x -a '(__paycli_profiles)' -d 'config profile to use (env PAYCLI_PROFILE; default "default")'
complete -c paycli -n '__paycli_at \'auth\'' -l base-url -x -d 'gateway base URL, or "sandbox" (env PAYCLI_BASE_URL)'
complete -c paycli -n '__paycli_at \'auth\'' -l timeout -x -d 'request timeout in milliseconds (default 30000)'
complete -c paycli -n '__paycli_at \'auth\'' -l verbose -d 'trace the request and response on stderr (credential redacted)'
complete -c paycli -n '__paycli_at \'auth\'' -l no-color -d 'no colour (also NO_COLOR=1)'
complete -c paycli -n '__paycli_at \'auth\'' -l no-input -d 'never prompt; fail on missing fields (also PAYCLI_NO_INPUT=1)'
complete -c paycli -n '__paycli_at \'auth\'' -l allow-insecure-http -d 'allow a plain http:// base URL to a non-loopback host'
complete -c paycli -n '__paycli_at \'auth\'' -l lang -x -a 'pt-BR en' -d 'language of messages and help: pt-BR or en (default: config key lang, then LC_ALL/LC_MESSAGES/LANG)'

# paycli auth login
complete -c paycli -n '__paycli_at \'auth login\'' -l no-check -d 'keep the key without asking the gateway first (a gateway without a balance lookup)'
complete -c paycli -n '__paycli_at \'auth login\'' -s h -l help -d 'show help'
complete -c paycli -n '__paycli_at \'auth login\'' -s V -l version -d 'print the version (with --verbose: also Node, the SQLite driver, and where the ledger, config and cache are)'
complete -c paycli -n '__paycli_at \'auth login\'' -l json -d 'print the result as one JSON document on stdout (errors as JSON on stderr)'
complete -c paycli -n '__paycli_at \'auth login\'' -l profile -x -a '(__paycli_profiles)' -d 'config profile to use (env PAYCLI_PROFILE; default "default")'
complete -c paycli -n '__paycli_at \'auth login\'' -l base-url -x -d 'gateway base URL, or "sandbox" (env PAYCLI_BASE_URL)'
complete -c paycli -n '__paycli_at \'auth login\'' -l timeout -x -d 'request timeout in milliseconds (default 30000)'
complete -c paycli -n '__paycli_at \'auth login\'' -l verbose -d 'trace the request and response on stderr (credential redacted)'
complete -c paycli -n '__paycli_at \'auth login\'' -l no-color -d 'no colour (also NO_COLOR=1)'
complete -c paycli -n '__paycli_at \'auth login\'' -l no-input -d 'never prompt; fail on missing fields (also PAYCLI_NO_INPUT=1)'
complete -c paycli -n '__paycli_at \'auth login\'' -l allow-insecure-http -d 'allow a plain http:// base URL to a non-loopback host'
complete -c paycli -n '__paycli_at \'auth login\'' -l lang -x -a 'pt-BR en' -d 'language of messages and help: pt-BR or en (default: config key lang, then LC_ALL/LC_MESSAGES/LANG)'

# paycli auth status
complete -c paycli -n '__paycli_at \'auth status\'' -s h -l help -d 'show help'
complete -c paycli -n '__paycli_at \'auth status\'' -s V -l version -d 'print the version (with --verbose: also Node, the SQLite driver, and where the ledger, config and cache are)'
complete -c paycli -n '__paycli_at \'auth status\'' -l json -d 'print the result as one JSON document on stdout (errors as JSON on stderr)'
complete -c paycli -n '__paycli_at \'auth status\'' -l profile -x -a '(__paycli_profiles)' -d 'config profile to use (env PAYCLI_PROFILE; default "default")'
complete -c paycli -n '__paycli_at \'auth status\'' -l base-url -x -d 'gateway base URL, or "sandbox" (env PAYCLI_BASE_URL)'
complete -c paycli -n '__paycli_at \'auth status\'' -l timeout -x -d 'request timeout in milliseconds (default 30000)'
complete -c paycli -n '__paycli_at \'auth status\'' -l verbose -d 'trace the request and response on stderr (credential redacted)'
complete -c paycli -n '__paycli_at \'auth status\'' -l no-color -d 'no colour (also NO_COLOR=1)'
complete -c paycli -n '__paycli_at \'auth status\'' -l no-input -d 'never prompt; fail on missing fields (also PAYCLI_NO_INPUT=1)'
complete -c paycli -n '__paycli_at \'auth status\'' -l allow-insecure-http -d 'allow a plain http:// base URL to a non-loopback host'
complete -c paycli -n '__paycli_at \'auth status\'' -l lang -x -a 'pt-BR en' -d 'language of messages and help: pt-BR or en (default: config key lang, then LC_ALL/LC_MESSAGES/LANG)'

# paycli auth logout
complete -c paycli -n '__paycli_at \'auth logout\'' -s h -l help -d 'show help'
complete -c paycli -n '__paycli_at \'auth logout\'' -s V -l version -d 'print the version (with --verbose: also Node, the SQLite driver, and where the ledger, config and cache are)'
complete -c paycli -n '__paycli_at \'auth logout\'' -l json -d 'print the result as one JSON document on stdout (errors as JSON on stderr)'
complete -c paycli -n '__paycli_at \'auth logout\'' -l profile -x -a '(__paycli_profiles)' -d 'config profile to use (env PAYCLI_PROFILE; default "default")'
complete -c paycli -n '__paycli_at \'auth logout\'' -l base-url -x -d 'gateway base URL, or "sandbox" (env PAYCLI_BASE_URL)'
complete -c paycli -n '__paycli_at \'auth logout\'' -l timeout -x -d 'request timeout in milliseconds (default 30000)'
complete -c paycli -n '__paycli_at \'auth logout\'' -l verbose -d 'trace the request and response on stderr (credential redacted)'
complete -c paycli -n '__paycli_at \'auth logout\'' -l no-color -d 'no colour (also NO_COLOR=1)'
complete -c paycli -n '__paycli_at \'auth logout\'' -l no-input -d 'never prompt; fail on missing fields (also PAYCLI_NO_INPUT=1)'
complete -c paycli -n '__paycli_at \'auth logout\'' -l allow-insecure-http -d 'allow a plain http:// base URL to a non-loopback host'
complete -c paycli -n '__paycli_at \'auth logout\'' -l lang -x -a 'pt-BR en' -d 'language of messages and help: pt-BR or en (default: config key lang, then LC_ALL/LC_MESSAGES/LANG)'

# paycli sandbox
complete -c paycli -n '__paycli_at \'sandbox\' 0' -a 'pay' -d 'mark a pending transaction paid in a running `paycli sandbox`; its postbacks are sent'
complete -c paycli -n '__paycli_at \'sandbox\' 0' -a 'fail' -d 'mark a pending transaction failed in a running `paycli sandbox`; its postbacks are sent'
complete -c paycli -n '__paycli_at \'sandbox\' 0' -a 'cancel' -d 'mark a pending transaction canceled in a running `paycli sandbox`; its postbacks are sent'
complete -c paycli -n '__paycli_at \'sandbox\' 0' -a 'refund' -d 'refund a paid transaction, or one under infraction (postback status "refund") in a running `paycli sandbox`; its postbacks are sent'
complete -c paycli -n '__paycli_at \'sandbox\' 0' -a 'infraction' -d 'open an infraction report (MED) on a paid transaction (postback status "infraction") in a running `paycli sandbox`; its postbacks are sent'
complete -c paycli -n '__paycli_at \'sandbox\' 0' -a 'ping' -d 'have a running `paycli sandbox` send the {"test": true} ping to a postback URL (default: its --webhook-url)'
complete -c paycli -n '__paycli_at \'sandbox\' 0' -a 'events' -d 'list the postback events of a running `paycli sandbox`, newest first, with their attempts'
complete -c paycli -n '__paycli_at \'sandbox\' 0' -a 'resend' -d 'have a running `paycli sandbox` send an event again (delivered or not), or every event not delivered with --failed'
complete -c paycli -n '__paycli_at \'sandbox\'' -l port -x -d 'port to listen on (0 = any free port)'
complete -c paycli -n '__paycli_at \'sandbox\'' -l host -x -d 'address to listen on'
complete -c paycli -n '__paycli_at \'sandbox\'' -l api-key -x -d 'require this key on every request: "Authorization: Bearer <key>" (any letter case) or the raw key; 401 otherwise (subcommands: send it)'
complete -c paycli -n '__paycli_at \'sandbox\'' -l no-acquirer -d 'answer every cash-in with 400 "no active acquirer"'
complete -c paycli -n '__paycli_at \'sandbox\'' -l postback-secret -x -d 'sign every postback (x-paycli-signature, HMAC-SHA256); a sandbox feature (env PAYCLI_POSTBACK_SECRET)'
complete -c paycli -n '__paycli_at \'sandbox\'' -l auto-pay -x -d 'pay every cash-in by itself this many seconds after it is created'
complete -c paycli -n '__paycli_at \'sandbox\'' -l webhook-url -x -d 'also send every postback of every transaction here (the gateway\'s account-wide webhook)'
complete -c paycli -n '__paycli_at \'sandbox\'' -l strict -d 'also check formats: CPF/CNPJ check digits, PIX keys against their type, phones, e-mails; orderId required on cash-outs'
complete -c paycli -n '__paycli_at \'sandbox\'' -l drop-after-create -x -d 'create the n-th transaction (from 1; several: 2,5), then reset its connection before answering'
complete -c paycli -n '__paycli_at \'sandbox\'' -l retry-for -x -d 'retry each postback until delivered for this long (ms, s, m, h, d: 90s, 30m, 24h)'
complete -c paycli -n '__paycli_at \'sandbox\'' -l retry-schedule -x -a 'standard fast' -d 'waits between attempts: standard (10 s doubling to 1 h) or fast (0.1 s doubling to 2 s, for tests)'
complete -c paycli -n '__paycli_at \'sandbox\'' -l data-dir -x -d 'keep the postback events in this folder across restarts (default: <data folder>/sandbox)'
complete -c paycli -n '__paycli_at \'sandbox\'' -l keep-events -x -d 'most events kept; past it the oldest delivered go first'
complete -c paycli -n '__paycli_at \'sandbox\'' -s h -l help -d 'show help'
complete -c paycli -n '__paycli_at \'sandbox\'' -s V -l version -d 'print the version (with --verbose: also Node, the SQLite driver, and where the ledger, config and cache are)'
complete -c paycli -n '__paycli_at \'sandbox\'' -l json -d 'print the result as one JSON document on stdout (errors as JSON on stderr)'
complete -c paycli -n '__paycli_at \'sandbox\'' -l profile -x -a '(__paycli_profiles)' -d 'config profile to use (env PAYCLI_PROFILE; default "default")'
complete -c paycli -n '__paycli_at \'sandbox\'' -l base-url -x -d 'gateway base URL, or "sandbox" (env PAYCLI_BASE_URL)'
complete -c paycli -n '__paycli_at \'sandbox\'' -l timeout -x -d 'request timeout in milliseconds (default 30000)'
complete -c paycli -n '__paycli_at \'sandbox\'' -l verbose -d 'trace the request and response on stderr (credential redacted)'
complete -c paycli -n '__paycli_at \'sandbox\'' -l no-color -d 'no colour (also NO_COLOR=1)'
complete -c paycli -n '__paycli_at \'sandbox\'' -l no-input -d 'never prompt; fail on missing fields (also PAYCLI_NO_INPUT=1)'
complete -c paycli -n '__paycli_at \'sandbox\'' -l allow-insecure-http -d 'allow a plain http:// base URL to a non-loopback host'
complete -c paycli -n '__paycli_at \'sandbox\'' -l lang -x -a 'pt-BR en' -d 'language of messages and help: pt-BR or en (default: config key lang, then LC_ALL/LC_MESSAGES/LANG)'

# paycli sandbox pay
complete -c paycli -n '__paycli_at \'sandbox pay\'' -l sandbox-url -x -d 'address of the running sandbox'
complete -c paycli -n '__paycli_at \'sandbox pay\'' -l api-key -x -d 'the key the sandbox was started with (--api-key)'
complete -c paycli -n '__paycli_at \'sandbox pay\'' -s h -l help -d 'show help'
complete -c paycli -n '__paycli_at \'sandbox pay\'' -l port -x -d 'port to listen on (0 = any free port)'
complete -c paycli -n '__paycli_at \'sandbox pay\'' -l host -x -d 'address to listen on'
complete -c paycli -n '__paycli_at \'sandbox pay\'' -l no-acquirer -d 'answer every cash-in with 400 "no active acquirer"'
complete -c paycli -n '__paycli_at \'sandbox pay\'' -l postback-secret -x -d 'sign every postback (x-paycli-signature, HMAC-SHA256); a sandbox feature (env PAYCLI_POSTBACK_SECRET)'
complete -c paycli -n '__paycli_at \'sandbox pay\'' -l auto-pay -x -d 'pay every cash-in by itself this many seconds after it is created'
complete -c paycli -n '__paycli_at \'sandbox pay\'' -l webhook-url -x -d 'also send every postback of every transaction here (the gateway\'s account-wide webhook)'
complete -c paycli -n '__paycli_at \'sandbox pay\'' -l strict -d 'also check formats: CPF/CNPJ check digits, PIX keys against their type, phones, e-mails; orderId required on cash-outs'
complete -c paycli -n '__paycli_at \'sandbox pay\'' -l drop-after-create -x -d 'create the n-th transaction (from 1; several: 2,5), then reset its connection before answering'
complete -c paycli -n '__paycli_at \'sandbox pay\'' -l retry-for -x -d 'retry each postback until delivered for this long (ms, s, m, h, d: 90s, 30m, 24h)'
complete -c paycli -n '__paycli_at \'sandbox pay\'' -l retry-schedule -x -a 'standard fast' -d 'waits between attempts: standard (10 s doubling to 1 h) or fast (0.1 s doubling to 2 s, for tests)'
complete -c paycli -n '__paycli_at \'sandbox pay\'' -l data-dir -x -d 'keep the postback events in this folder across restarts (default: <data folder>/sandbox)'
complete -c paycli -n '__paycli_at \'sandbox pay\'' -l keep-events -x -d 'most events kept; past it the oldest delivered go first'
complete -c paycli -n '__paycli_at \'sandbox pay\'' -s V -l version -d 'print the version (with --verbose: also Node, the SQLite driver, and where the ledger, config and cache are)'
complete -c paycli -n '__paycli_at \'sandbox pay\'' -l json -d 'print the result as one JSON document on stdout (errors as JSON on stderr)'
complete -c paycli -n '__paycli_at \'sandbox pay\'' -l profile -x -a '(__paycli_profiles)' -d 'config profile to use (env PAYCLI_PROFILE; default "default")'
complete -c paycli -n '__paycli_at \'sandbox pay\'' -l base-url -x -d 'gateway base URL, or "sandbox" (env PAYCLI_BASE_URL)'
complete -c paycli -n '__paycli_at \'sandbox pay\'' -l timeout -x -d 'request timeout in milliseconds (default 30000)'
complete -c paycli -n '__paycli_at \'sandbox pay\'' -l verbose -d 'trace the request and response on stderr (credential redacted)'
complete -c paycli -n '__paycli_at \'sandbox pay\'' -l no-color -d 'no colour (also NO_COLOR=1)'
complete -c paycli -n '__paycli_at \'sandbox pay\'' -l no-input -d 'never prompt; fail on missing fields (also PAYCLI_NO_INPUT=1)'
complete -c paycli -n '__paycli_at \'sandbox pay\'' -l allow-insecure-http -d 'allow a plain http:// base URL to a non-loopback host'
complete -c paycli -n '__paycli_at \'sandbox pay\'' -l lang -x -a 'pt-BR en' -d 'language of messages and help: pt-BR or en (default: config key lang, then LC_ALL/LC_MESSAGES/LANG)'

# paycli sandbox fail
complete -c paycli -n '__paycli_at \'sandbox fail\'' -l sandbox-url -x -d 'address of the running sandbox'
complete -c paycli -n '__paycli_at \'sandbox fail\'' -l api-key -x -d 'the key the sandbox was started with (--api-key)'
complete -c paycli -n '__paycli_at \'sandbox fail\'' -s h -l help -d 'show help'
complete -c paycli -n '__paycli_at \'sandbox fail\'' -l port -x -d 'port to listen on (0 = any free port)'
complete -c paycli -n '__paycli_at \'sandbox fail\'' -l host -x -d 'address to listen on'
complete -c paycli -n '__paycli_at \'sandbox fail\'' -l no-acquirer -d 'answer every cash-in with 400 "no active acquirer"'
complete -c paycli -n '__paycli_at \'sandbox fail\'' -l postback-secret -x -d 'sign every postback (x-paycli-signature, HMAC-SHA256); a sandbox feature (env PAYCLI_POSTBACK_SECRET)'
complete -c paycli -n '__paycli_at \'sandbox fail\'' -l auto-pay -x -d 'pay every cash-in by itself this many seconds after it is created'
complete -c paycli -n '__paycli_at \'sandbox fail\'' -l webhook-url -x -d 'also send every postback of every transaction here (the gateway\'s account-wide webhook)'
complete -c paycli -n '__paycli_at \'sandbox fail\'' -l strict -d 'also check formats: CPF/CNPJ check digits, PIX keys against their type, phones, e-mails; orderId required on cash-outs'
complete -c paycli -n '__paycli_at \'sandbox fail\'' -l drop-after-create -x -d 'create the n-th transaction (from 1; several: 2,5), then reset its connection before answering'
complete -c paycli -n '__paycli_at \'sandbox fail\'' -l retry-for -x -d 'retry each postback until delivered for this long (ms, s, m, h, d: 90s, 30m, 24h)'
complete -c paycli -n '__paycli_at \'sandbox fail\'' -l retry-schedule -x -a 'standard fast' -d 'waits between attempts: standard (10 s doubling to 1 h) or fast (0.1 s doubling to 2 s, for tests)'
complete -c paycli -n '__paycli_at \'sandbox fail\'' -l data-dir -x -d 'keep the postback events in this folder across restarts (default: <data folder>/sandbox)'
complete -c paycli -n '__paycli_at \'sandbox fail\'' -l keep-events -x -d 'most events kept; past it the oldest delivered go first'
complete -c paycli -n '__paycli_at \'sandbox fail\'' -s V -l version -d 'print the version (with --verbose: also Node, the SQLite driver, and where the ledger, config and cache are)'
complete -c paycli -n '__paycli_at \'sandbox fail\'' -l json -d 'print the result as one JSON document on stdout (errors as JSON on stderr)'
complete -c paycli -n '__paycli_at \'sandbox fail\'' -l profile -x -a '(__paycli_profiles)' -d 'config profile to use (env PAYCLI_PROFILE; default "default")'
complete -c paycli -n '__paycli_at \'sandbox fail\'' -l base-url -x -d 'gateway base URL, or "sandbox" (env PAYCLI_BASE_URL)'
complete -c paycli -n '__paycli_at \'sandbox fail\'' -l timeout -x -d 'request timeout in milliseconds (default 30000)'
complete -c paycli -n '__paycli_at \'sandbox fail\'' -l verbose -d 'trace the request and response on stderr (credential redacted)'
complete -c paycli -n '__paycli_at \'sandbox fail\'' -l no-color -d 'no colour (also NO_COLOR=1)'
complete -c paycli -n '__paycli_at \'sandbox fail\'' -l no-input -d 'never prompt; fail on missing fields (also PAYCLI_NO_INPUT=1)'
complete -c paycli -n '__paycli_at \'sandbox fail\'' -l allow-insecure-http -d 'allow a plain http:// base URL to a non-loopback host'
complete -c paycli -n '__paycli_at \'sandbox fail\'' -l lang -x -a 'pt-BR en' -d 'language of messages and help: pt-BR or en (default: config key lang, then LC_ALL/LC_MESSAGES/LANG)'

# paycli sandbox cancel
complete -c paycli -n '__paycli_at \'sandbox cancel\'' -l sandbox-url -x -d 'address of the running sandbox'
complete -c paycli -n '__paycli_at \'sandbox cancel\'' -l api-key -x -d 'the key the sandbox was started with (--api-key)'
complete -c paycli -n '__paycli_at \'sandbox cancel\'' -s h -l help -d 'show help'
complete -c paycli -n '__paycli_at \'sandbox cancel\'' -l port -x -d 'port to listen on (0 = any free port)'
complete -c paycli -n '__paycli_at \'sandbox cancel\'' -l host -x -d 'address to listen on'
complete -c paycli -n '__paycli_at \'sandbox cancel\'' -l no-acquirer -d 'answer every cash-in with 400 "no active acquirer"'
complete -c paycli -n '__paycli_at \'sandbox cancel\'' -l postback-secret -x -d 'sign every postback (x-paycli-signature, HMAC-SHA256); a sandbox feature (env PAYCLI_POSTBACK_SECRET)'
complete -c paycli -n '__paycli_at \'sandbox cancel\'' -l auto-pay -x -d 'pay every cash-in by itself this many seconds after it is created'
complete -c paycli -n '__paycli_at \'sandbox cancel\'' -l webhook-url -x -d 'also send every postback of every transaction here (the gateway\'s account-wide webhook)'
complete -c paycli -n '__paycli_at \'sandbox cancel\'' -l strict -d 'also check formats: CPF/CNPJ check digits, PIX keys against their type, phones, e-mails; orderId required on cash-outs'
complete -c paycli -n '__paycli_at \'sandbox cancel\'' -l drop-after-create -x -d 'create the n-th transaction (from 1; several: 2,5), then reset its connection before answering'
complete -c paycli -n '__paycli_at \'sandbox cancel\'' -l retry-for -x -d 'retry each postback until delivered for this long (ms, s, m, h, d: 90s, 30m, 24h)'
complete -c paycli -n '__paycli_at \'sandbox cancel\'' -l retry-schedule -x -a 'standard fast' -d 'waits between attempts: standard (10 s doubling to 1 h) or fast (0.1 s doubling to 2 s, for tests)'
complete -c paycli -n '__paycli_at \'sandbox cancel\'' -l data-dir -x -d 'keep the postback events in this folder across restarts (default: <data folder>/sandbox)'
complete -c paycli -n '__paycli_at \'sandbox cancel\'' -l keep-events -x -d 'most events kept; past it the oldest delivered go first'
complete -c paycli -n '__paycli_at \'sandbox cancel\'' -s V -l version -d 'print the version (with --verbose: also Node, the SQLite driver, and where the ledger, config and cache are)'
complete -c paycli -n '__paycli_at \'sandbox cancel\'' -l json -d 'print the result as one JSON document on stdout (errors as JSON on stderr)'
complete -c paycli -n '__paycli_at \'sandbox cancel\'' -l profile -x -a '(__paycli_profiles)' -d 'config profile to use (env PAYCLI_PROFILE; default "default")'
complete -c paycli -n '__paycli_at \'sandbox cancel\'' -l base-url -x -d 'gateway base URL, or "sandbox" (env PAYCLI_BASE_URL)'
complete -c paycli -n '__paycli_at \'sandbox cancel\'' -l timeout -x -d 'request timeout in milliseconds (default 30000)'
complete -c paycli -n '__paycli_at \'sandbox cancel\'' -l verbose -d 'trace the request and response on stderr (credential redacted)'
complete -c paycli -n '__paycli_at \'sandbox cancel\'' -l no-color -d 'no colour (also NO_COLOR=1)'
complete -c paycli -n '__paycli_at \'sandbox cancel\'' -l no-input -d 'never prompt; fail on missing fields (also PAYCLI_NO_INPUT=1)'
complete -c paycli -n '__paycli_at \'sandbox cancel\'' -l allow-insecure-http -d 'allow a plain http:// base URL to a non-loopback host'
complete -c paycli -n '__paycli_at \'sandbox cancel\'' -l lang -x -a 'pt-BR en' -d 'language of messages and help: pt-BR or en (default: config key lang, then LC_ALL/LC_MESSAGES/LANG)'

# paycli sandbox refund
complete -c paycli -n '__paycli_at \'sandbox refund\'' -l sandbox-url -x -d 'address of the running sandbox'
complete -c paycli -n '__paycli_at \'sandbox refund\'' -l api-key -x -d 'the key the sandbox was started with (--api-key)'
complete -c paycli -n '__paycli_at \'sandbox refund\'' -s h -l help -d 'show help'
complete -c paycli -n '__paycli_at \'sandbox refund\'' -l port -x -d 'port to listen on (0 = any free port)'
complete -c paycli -n '__paycli_at \'sandbox refund\'' -l host -x -d 'address to listen on'
complete -c paycli -n '__paycli_at \'sandbox refund\'' -l no-acquirer -d 'answer every cash-in with 400 "no active acquirer"'
complete -c paycli -n '__paycli_at \'sandbox refund\'' -l postback-secret -x -d 'sign every postback (x-paycli-signature, HMAC-SHA256); a sandbox feature (env PAYCLI_POSTBACK_SECRET)'
complete -c paycli -n '__paycli_at \'sandbox refund\'' -l auto-pay -x -d 'pay every cash-in by itself this many seconds after it is created'
complete -c paycli -n '__paycli_at \'sandbox refund\'' -l webhook-url -x -d 'also send every postback of every transaction here (the gateway\'s account-wide webhook)'
complete -c paycli -n '__paycli_at \'sandbox refund\'' -l strict -d 'also check formats: CPF/CNPJ check digits, PIX keys against their type, phones, e-mails; orderId required on cash-outs'
complete -c paycli -n '__paycli_at \'sandbox refund\'' -l drop-after-create -x -d 'create the n-th transaction (from 1; several: 2,5), then reset its connection before answering'
complete -c paycli -n '__paycli_at \'sandbox refund\'' -l retry-for -x -d 'retry each postback until delivered for this long (ms, s, m, h, d: 90s, 30m, 24h)'
complete -c paycli -n '__paycli_at \'sandbox refund\'' -l retry-schedule -x -a 'standard fast' -d 'waits between attempts: standard (10 s doubling to 1 h) or fast (0.1 s doubling to 2 s, for tests)'
complete -c paycli -n '__paycli_at \'sandbox refund\'' -l data-dir -x -d 'keep the postback events in this folder across restarts (default: <data folder>/sandbox)'
complete -c paycli -n '__paycli_at \'sandbox refund\'' -l keep-events -x -d 'most events kept; past it the oldest delivered go first'
complete -c paycli -n '__paycli_at \'sandbox refund\'' -s V -l version -d 'print the version (with --verbose: also Node, the SQLite driver, and where the ledger, config and cache are)'
complete -c paycli -n '__paycli_at \'sandbox refund\'' -l json -d 'print the result as one JSON document on stdout (errors as JSON on stderr)'
complete -c paycli -n '__paycli_at \'sandbox refund\'' -l profile -x -a '(__paycli_profiles)' -d 'config profile to use (env PAYCLI_PROFILE; default "default")'
complete -c paycli -n '__paycli_at \'sandbox refund\'' -l base-url -x -d 'gateway base URL, or "sandbox" (env PAYCLI_BASE_URL)'
complete -c paycli -n '__paycli_at \'sandbox refund\'' -l timeout -x -d 'request timeout in milliseconds (default 30000)'
complete -c paycli -n '__paycli_at \'sandbox refund\'' -l verbose -d 'trace the request and response on stderr (credential redacted)'
complete -c paycli -n '__paycli_at \'sandbox refund\'' -l no-color -d 'no colour (also NO_COLOR=1)'
complete -c paycli -n '__paycli_at \'sandbox refund\'' -l no-input -d 'never prompt; fail on missing fields (also PAYCLI_NO_INPUT=1)'
complete -c paycli -n '__paycli_at \'sandbox refund\'' -l allow-insecure-http -d 'allow a plain http:// base URL to a non-loopback host'
complete -c paycli -n '__paycli_at \'sandbox refund\'' -l lang -x -a 'pt-BR en' -d 'language of messages and help: pt-BR or en (default: config key lang, then LC_ALL/LC_MESSAGES/LANG)'

# paycli sandbox infraction
complete -c paycli -n '__paycli_at \'sandbox infraction\'' -l sandbox-url -x -d 'address of the running sandbox'
complete -c paycli -n '__paycli_at \'sandbox infraction\'' -l api-key -x -d 'the key the sandbox was started with (--api-key)'
complete -c paycli -n '__paycli_at \'sandbox infraction\'' -s h -l help -d 'show help'
complete -c paycli -n '__paycli_at \'sandbox infraction\'' -l port -x -d 'port to listen on (0 = any free port)'
complete -c paycli -n '__paycli_at \'sandbox infraction\'' -l host -x -d 'address to listen on'
complete -c paycli -n '__paycli_at \'sandbox infraction\'' -l no-acquirer -d 'answer every cash-in with 400 "no active acquirer"'
complete -c paycli -n '__paycli_at \'sandbox infraction\'' -l postback-secret -x -d 'sign every postback (x-paycli-signature, HMAC-SHA256); a sandbox feature (env PAYCLI_POSTBACK_SECRET)'
complete -c paycli -n '__paycli_at \'sandbox infraction\'' -l auto-pay -x -d 'pay every cash-in by itself this many seconds after it is created'
complete -c paycli -n '__paycli_at \'sandbox infraction\'' -l webhook-url -x -d 'also send every postback of every transaction here (the gateway\'s account-wide webhook)'
complete -c paycli -n '__paycli_at \'sandbox infraction\'' -l strict -d 'also check formats: CPF/CNPJ check digits, PIX keys against their type, phones, e-mails; orderId required on cash-outs'
complete -c paycli -n '__paycli_at \'sandbox infraction\'' -l drop-after-create -x -d 'create the n-th transaction (from 1; several: 2,5), then reset its connection before answering'
complete -c paycli -n '__paycli_at \'sandbox infraction\'' -l retry-for -x -d 'retry each postback until delivered for this long (ms, s, m, h, d: 90s, 30m, 24h)'
complete -c paycli -n '__paycli_at \'sandbox infraction\'' -l retry-schedule -x -a 'standard fast' -d 'waits between attempts: standard (10 s doubling to 1 h) or fast (0.1 s doubling to 2 s, for tests)'
complete -c paycli -n '__paycli_at \'sandbox infraction\'' -l data-dir -x -d 'keep the postback events in this folder across restarts (default: <data folder>/sandbox)'
complete -c paycli -n '__paycli_at \'sandbox infraction\'' -l keep-events -x -d 'most events kept; past it the oldest delivered go first'
complete -c paycli -n '__paycli_at \'sandbox infraction\'' -s V -l version -d 'print the version (with --verbose: also Node, the SQLite driver, and where the ledger, config and cache are)'
complete -c paycli -n '__paycli_at \'sandbox infraction\'' -l json -d 'print the result as one JSON document on stdout (errors as JSON on stderr)'
complete -c paycli -n '__paycli_at \'sandbox infraction\'' -l profile -x -a '(__paycli_profiles)' -d 'config profile to use (env PAYCLI_PROFILE; default "default")'
complete -c paycli -n '__paycli_at \'sandbox infraction\'' -l base-url -x -d 'gateway base URL, or "sandbox" (env PAYCLI_BASE_URL)'
complete -c paycli -n '__paycli_at \'sandbox infraction\'' -l timeout -x -d 'request timeout in milliseconds (default 30000)'
complete -c paycli -n '__paycli_at \'sandbox infraction\'' -l verbose -d 'trace the request and response on stderr (credential redacted)'
complete -c paycli -n '__paycli_at \'sandbox infraction\'' -l no-color -d 'no colour (also NO_COLOR=1)'
complete -c paycli -n '__paycli_at \'sandbox infraction\'' -l no-input -d 'never prompt; fail on missing fields (also PAYCLI_NO_INPUT=1)'
complete -c paycli -n '__paycli_at \'sandbox infraction\'' -l allow-insecure-http -d 'allow a plain http:// base URL to a non-loopback host'
complete -c paycli -n '__paycli_at \'sandbox infraction\'' -l lang -x -a 'pt-BR en' -d 'language of messages and help: pt-BR or en (default: config key lang, then LC_ALL/LC_MESSAGES/LANG)'

# paycli sandbox ping
complete -c paycli -n '__paycli_at \'sandbox ping\'' -l sandbox-url -x -d 'address of the running sandbox'
complete -c paycli -n '__paycli_at \'sandbox ping\'' -l api-key -x -d 'the key the sandbox was started with (--api-key)'
complete -c paycli -n '__paycli_at \'sandbox ping\'' -s h -l help -d 'show help'
complete -c paycli -n '__paycli_at \'sandbox ping\'' -l port -x -d 'port to listen on (0 = any free port)'
complete -c paycli -n '__paycli_at \'sandbox ping\'' -l host -x -d 'address to listen on'
complete -c paycli -n '__paycli_at \'sandbox ping\'' -l no-acquirer -d 'answer every cash-in with 400 "no active acquirer"'
complete -c paycli -n '__paycli_at \'sandbox ping\'' -l postback-secret -x -d 'sign every postback (x-paycli-signature, HMAC-SHA256); a sandbox feature (env PAYCLI_POSTBACK_SECRET)'
complete -c paycli -n '__paycli_at \'sandbox ping\'' -l auto-pay -x -d 'pay every cash-in by itself this many seconds after it is created'
complete -c paycli -n '__paycli_at \'sandbox ping\'' -l webhook-url -x -d 'also send every postback of every transaction here (the gateway\'s account-wide webhook)'
complete -c paycli -n '__paycli_at \'sandbox ping\'' -l strict -d 'also check formats: CPF/CNPJ check digits, PIX keys against their type, phones, e-mails; orderId required on cash-outs'
complete -c paycli -n '__paycli_at \'sandbox ping\'' -l drop-after-create -x -d 'create the n-th transaction (from 1; several: 2,5), then reset its connection before answering'
complete -c paycli -n '__paycli_at \'sandbox ping\'' -l retry-for -x -d 'retry each postback until delivered for this long (ms, s, m, h, d: 90s, 30m, 24h)'
complete -c paycli -n '__paycli_at \'sandbox ping\'' -l retry-schedule -x -a 'standard fast' -d 'waits between attempts: standard (10 s doubling to 1 h) or fast (0.1 s doubling to 2 s, for tests)'
complete -c paycli -n '__paycli_at \'sandbox ping\'' -l data-dir -x -d 'keep the postback events in this folder across restarts (default: <data folder>/sandbox)'
complete -c paycli -n '__paycli_at \'sandbox ping\'' -l keep-events -x -d 'most events kept; past it the oldest delivered go first'
complete -c paycli -n '__paycli_at \'sandbox ping\'' -s V -l version -d 'print the version (with --verbose: also Node, the SQLite driver, and where the ledger, config and cache are)'
complete -c paycli -n '__paycli_at \'sandbox ping\'' -l json -d 'print the result as one JSON document on stdout (errors as JSON on stderr)'
complete -c paycli -n '__paycli_at \'sandbox ping\'' -l profile -x -a '(__paycli_profiles)' -d 'config profile to use (env PAYCLI_PROFILE; default "default")'
complete -c paycli -n '__paycli_at \'sandbox ping\'' -l base-url -x -d 'gateway base URL, or "sandbox" (env PAYCLI_BASE_URL)'
complete -c paycli -n '__paycli_at \'sandbox ping\'' -l timeout -x -d 'request timeout in milliseconds (default 30000)'
complete -c paycli -n '__paycli_at \'sandbox ping\'' -l verbose -d 'trace the request and response on stderr (credential redacted)'
complete -c paycli -n '__paycli_at \'sandbox ping\'' -l no-color -d 'no colour (also NO_COLOR=1)'
complete -c paycli -n '__paycli_at \'sandbox ping\'' -l no-input -d 'never prompt; fail on missing fields (also PAYCLI_NO_INPUT=1)'
complete -c paycli -n '__paycli_at \'sandbox ping\'' -l allow-insecure-http -d 'allow a plain http:// base URL to a non-loopback host'
complete -c paycli -n '__paycli_at \'sandbox ping\'' -l lang -x -a 'pt-BR en' -d 'language of messages and help: pt-BR or en (default: config key lang, then LC_ALL/LC_MESSAGES/LANG)'

# paycli sandbox events
complete -c paycli -n '__paycli_at \'sandbox events\'' -l failed -d 'only the events not delivered (given up, or still being retried)'
complete -c paycli -n '__paycli_at \'sandbox events\'' -l transaction -x -d 'only the events of this transaction'
complete -c paycli -n '__paycli_at \'sandbox events\'' -l limit -x -d 'show at most this many (default 100)'
complete -c paycli -n '__paycli_at \'sandbox events\'' -l sandbox-url -x -d 'address of the running sandbox'
complete -c paycli -n '__paycli_at \'sandbox events\'' -l api-key -x -d 'the key the sandbox was started with (--api-key)'
complete -c paycli -n '__paycli_at \'sandbox events\'' -s h -l help -d 'show help'
complete -c paycli -n '__paycli_at \'sandbox events\'' -l port -x -d 'port to listen on (0 = any free port)'
complete -c paycli -n '__paycli_at \'sandbox events\'' -l host -x -d 'address to listen on'
complete -c paycli -n '__paycli_at \'sandbox events\'' -l no-acquirer -d 'answer every cash-in with 400 "no active acquirer"'
complete -c paycli -n '__paycli_at \'sandbox events\'' -l postback-secret -x -d 'sign every postback (x-paycli-signature, HMAC-SHA256); a sandbox feature (env PAYCLI_POSTBACK_SECRET)'
complete -c paycli -n '__paycli_at \'sandbox events\'' -l auto-pay -x -d 'pay every cash-in by itself this many seconds after it is created'
complete -c paycli -n '__paycli_at \'sandbox events\'' -l webhook-url -x -d 'also send every postback of every transaction here (the gateway\'s account-wide webhook)'
complete -c paycli -n '__paycli_at \'sandbox events\'' -l strict -d 'also check formats: CPF/CNPJ check digits, PIX keys against their type, phones, e-mails; orderId required on cash-outs'
complete -c paycli -n '__paycli_at \'sandbox events\'' -l drop-after-create -x -d 'create the n-th transaction (from 1; several: 2,5), then reset its connection before answering'
complete -c paycli -n '__paycli_at \'sandbox events\'' -l retry-for -x -d 'retry each postback until delivered for this long (ms, s, m, h, d: 90s, 30m, 24h)'
complete -c paycli -n '__paycli_at \'sandbox events\'' -l retry-schedule -x -a 'standard fast' -d 'waits between attempts: standard (10 s doubling to 1 h) or fast (0.1 s doubling to 2 s, for tests)'
complete -c paycli -n '__paycli_at \'sandbox events\'' -l data-dir -x -d 'keep the postback events in this folder across restarts (default: <data folder>/sandbox)'
complete -c paycli -n '__paycli_at \'sandbox events\'' -l keep-events -x -d 'most events kept; past it the oldest delivered go first'
complete -c paycli -n '__paycli_at \'sandbox events\'' -s V -l version -d 'print the version (with --verbose: also Node, the SQLite driver, and where the ledger, config and cache are)'
complete -c paycli -n '__paycli_at \'sandbox events\'' -l json -d 'print the result as one JSON document on stdout (errors as JSON on stderr)'
complete -c paycli -n '__paycli_at \'sandbox events\'' -l profile -x -a '(__paycli_profiles)' -d 'config profile to use (env PAYCLI_PROFILE; default "default")'
complete -c paycli -n '__paycli_at \'sandbox events\'' -l base-url -x -d 'gateway base URL, or "sandbox" (env PAYCLI_BASE_URL)'
complete -c paycli -n '__paycli_at \'sandbox events\'' -l timeout -x -d 'request timeout in milliseconds (default 30000)'
complete -c paycli -n '__paycli_at \'sandbox events\'' -l verbose -d 'trace the request and response on stderr (credential redacted)'
complete -c paycli -n '__paycli_at \'sandbox events\'' -l no-color -d 'no colour (also NO_COLOR=1)'
complete -c paycli -n '__paycli_at \'sandbox events\'' -l no-input -d 'never prompt; fail on missing fields (also PAYCLI_NO_INPUT=1)'
complete -c paycli -n '__paycli_at \'sandbox events\'' -l allow-insecure-http -d 'allow a plain http:// base URL to a non-loopback host'
complete -c paycli -n '__paycli_at \'sandbox events\'' -l lang -x -a 'pt-BR en' -d 'language of messages and help: pt-BR or en (default: config key lang, then LC_ALL/LC_MESSAGES/LANG)'

# paycli sandbox resend
complete -c paycli -n '__paycli_at \'sandbox resend\'' -l failed -d 'every event not delivered (given up, or still being retried): sent now'
complete -c paycli -n '__paycli_at \'sandbox resend\'' -l sandbox-url -x -d 'address of the running sandbox'
complete -c paycli -n '__paycli_at \'sandbox resend\'' -l api-key -x -d 'the key the sandbox was started with (--api-key)'
complete -c paycli -n '__paycli_at \'sandbox resend\'' -s h -l help -d 'show help'
complete -c paycli -n '__paycli_at \'sandbox resend\'' -l port -x -d 'port to listen on (0 = any free port)'
complete -c paycli -n '__paycli_at \'sandbox resend\'' -l host -x -d 'address to listen on'
complete -c paycli -n '__paycli_at \'sandbox resend\'' -l no-acquirer -d 'answer every cash-in with 400 "no active acquirer"'
complete -c paycli -n '__paycli_at \'sandbox resend\'' -l postback-secret -x -d 'sign every postback (x-paycli-signature, HMAC-SHA256); a sandbox feature (env PAYCLI_POSTBACK_SECRET)'
complete -c paycli -n '__paycli_at \'sandbox resend\'' -l auto-pay -x -d 'pay every cash-in by itself this many seconds after it is created'
complete -c paycli -n '__paycli_at \'sandbox resend\'' -l webhook-url -x -d 'also send every postback of every transaction here (the gateway\'s account-wide webhook)'
complete -c paycli -n '__paycli_at \'sandbox resend\'' -l strict -d 'also check formats: CPF/CNPJ check digits, PIX keys against their type, phones, e-mails; orderId required on cash-outs'
complete -c paycli -n '__paycli_at \'sandbox resend\'' -l drop-after-create -x -d 'create the n-th transaction (from 1; several: 2,5), then reset its connection before answering'
complete -c paycli -n '__paycli_at \'sandbox resend\'' -l retry-for -x -d 'retry each postback until delivered for this long (ms, s, m, h, d: 90s, 30m, 24h)'
complete -c paycli -n '__paycli_at \'sandbox resend\'' -l retry-schedule -x -a 'standard fast' -d 'waits between attempts: standard (10 s doubling to 1 h) or fast (0.1 s doubling to 2 s, for tests)'
complete -c paycli -n '__paycli_at \'sandbox resend\'' -l data-dir -x -d 'keep the postback events in this folder across restarts (default: <data folder>/sandbox)'
complete -c paycli -n '__paycli_at \'sandbox resend\'' -l keep-events -x -d 'most events kept; past it the oldest delivered go first'
complete -c paycli -n '__paycli_at \'sandbox resend\'' -s V -l version -d 'print the version (with --verbose: also Node, the SQLite driver, and where the ledger, config and cache are)'
complete -c paycli -n '__paycli_at \'sandbox resend\'' -l json -d 'print the result as one JSON document on stdout (errors as JSON on stderr)'
complete -c paycli -n '__paycli_at \'sandbox resend\'' -l profile -x -a '(__paycli_profiles)' -d 'config profile to use (env PAYCLI_PROFILE; default "default")'
complete -c paycli -n '__paycli_at \'sandbox resend\'' -l base-url -x -d 'gateway base URL, or "sandbox" (env PAYCLI_BASE_URL)'
complete -c paycli -n '__paycli_at \'sandbox resend\'' -l timeout -x -d 'request timeout in milliseconds (default 30000)'
complete -c paycli -n '__paycli_at \'sandbox resend\'' -l verbose -d 'trace the request and response on stderr (credential redacted)'
complete -c paycli -n '__paycli_at \'sandbox resend\'' -l no-color -d 'no colour (also NO_COLOR=1)'
complete -c paycli -n '__paycli_at \'sandbox resend\'' -l no-input -d 'never prompt; fail on missing fields (also PAYCLI_NO_INPUT=1)'
complete -c paycli -n '__paycli_at \'sandbox resend\'' -l allow-insecure-http -d 'allow a plain http:// base URL to a non-loopback host'
complete -c paycli -n '__paycli_at \'sandbox resend\'' -l lang -x -a 'pt-BR en' -d 'language of messages and help: pt-BR or en (default: config key lang, then LC_ALL/LC_MESSAGES/LANG)'

# paycli history
complete -c paycli -n '__paycli_at \'history\' 0' -a 'resolve' -d 'record the outcome of an entry whose outcome is unknown, after checking it at the gateway'
complete -c paycli -n '__paycli_at \'history\'' -l since -x -d 'only payments recorded since: a duration back (30m, 24h, 7d, 2w) or a date/time (2026-11-01, UTC)'
complete -c paycli -n '__paycli_at \'history\'' -l until -x -d 'only payments recorded before (a date alone includes that whole day)'
complete -c paycli -n '__paycli_at \'history\'' -l kind -x -a 'cashin cashout' -d 'only cash-ins or cash-outs'
complete -c paycli -n '__paycli_at \'history\'' -l outcome -x -a 'ok refused unknown not_sent' -d 'only payments with this outcome'
complete -c paycli -n '__paycli_at \'history\'' -l order-id -x -d 'only payments sent with this order reference'
complete -c paycli -n '__paycli_at \'history\'' -l by -x -d 'only payments sent by this operating-system user on this host (also user alone, or @host)'
complete -c paycli -n '__paycli_at \'history\'' -l limit -x -d 'show at most this many entries (or all)'
complete -c paycli -n '__paycli_at \'history\'' -l format -x -a 'table json csv' -d 'output: a table for people, json, or csv for spreadsheets (--json = --format json)'
complete -c paycli -n '__paycli_at \'history\'' -s h -l help -d 'show help'
complete -c paycli -n '__paycli_at \'history\'' -s V -l version -d 'print the version (with --verbose: also Node, the SQLite driver, and where the ledger, config and cache are)'
complete -c paycli -n '__paycli_at \'history\'' -l json -d 'print the result as one JSON document on stdout (errors as JSON on stderr)'
complete -c paycli -n '__paycli_at \'history\'' -l profile -x -a '(__paycli_profiles)' -d 'config profile to use (env PAYCLI_PROFILE; default "default")'
complete -c paycli -n '__paycli_at \'history\'' -l base-url -x -d 'gateway base URL, or "sandbox" (env PAYCLI_BASE_URL)'
complete -c paycli -n '__paycli_at \'history\'' -l timeout -x -d 'request timeout in milliseconds (default 30000)'
complete -c paycli -n '__paycli_at \'history\'' -l verbose -d 'trace the request and response on stderr (credential redacted)'
complete -c paycli -n '__paycli_at \'history\'' -l no-color -d 'no colour (also NO_COLOR=1)'
complete -c paycli -n '__paycli_at \'history\'' -l no-input -d 'never prompt; fail on missing fields (also PAYCLI_NO_INPUT=1)'
complete -c paycli -n '__paycli_at \'history\'' -l allow-insecure-http -d 'allow a plain http:// base URL to a non-loopback host'
complete -c paycli -n '__paycli_at \'history\'' -l lang -x -a 'pt-BR en' -d 'language of messages and help: pt-BR or en (default: config key lang, then LC_ALL/LC_MESSAGES/LANG)'

# paycli history resolve
complete -c paycli -n '__paycli_at \'history resolve\'' -l outcome -x -a 'ok not_sent refused' -d 'required: what the gateway says: ok (it was paid), not_sent (it never got it), refused'
complete -c paycli -n '__paycli_at \'history resolve\'' -l note -x -d 'why, for the record (e.g. "not in the gateway\'s dashboard")'
complete -c paycli -n '__paycli_at \'history resolve\'' -l force -d 'resolve it even though the paycli run that sent it is still going (running or stopped)'
complete -c paycli -n '__paycli_at \'history resolve\'' -s h -l help -d 'show help'
complete -c paycli -n '__paycli_at \'history resolve\'' -l since -x -d 'only payments recorded since: a duration back (30m, 24h, 7d, 2w) or a date/time (2026-11-01, UTC)'
complete -c paycli -n '__paycli_at \'history resolve\'' -l until -x -d 'only payments recorded before (a date alone includes that whole day)'
complete -c paycli -n '__paycli_at \'history resolve\'' -l kind -x -a 'cashin cashout' -d 'only cash-ins or cash-outs'
complete -c paycli -n '__paycli_at \'history resolve\'' -l order-id -x -d 'only payments sent with this order reference'
complete -c paycli -n '__paycli_at \'history resolve\'' -l by -x -d 'only payments sent by this operating-system user on this host (also user alone, or @host)'
complete -c paycli -n '__paycli_at \'history resolve\'' -l limit -x -d 'show at most this many entries (or all)'
complete -c paycli -n '__paycli_at \'history resolve\'' -l format -x -a 'table json csv' -d 'output: a table for people, json, or csv for spreadsheets (--json = --format json)'
complete -c paycli -n '__paycli_at \'history resolve\'' -s V -l version -d 'print the version (with --verbose: also Node, the SQLite driver, and where the ledger, config and cache are)'
complete -c paycli -n '__paycli_at \'history resolve\'' -l json -d 'print the result as one JSON document on stdout (errors as JSON on stderr)'
complete -c paycli -n '__paycli_at \'history resolve\'' -l profile -x -a '(__paycli_profiles)' -d 'config profile to use (env PAYCLI_PROFILE; default "default")'
complete -c paycli -n '__paycli_at \'history resolve\'' -l base-url -x -d 'gateway base URL, or "sandbox" (env PAYCLI_BASE_URL)'
complete -c paycli -n '__paycli_at \'history resolve\'' -l timeout -x -d 'request timeout in milliseconds (default 30000)'
complete -c paycli -n '__paycli_at \'history resolve\'' -l verbose -d 'trace the request and response on stderr (credential redacted)'
complete -c paycli -n '__paycli_at \'history resolve\'' -l no-color -d 'no colour (also NO_COLOR=1)'
complete -c paycli -n '__paycli_at \'history resolve\'' -l no-input -d 'never prompt; fail on missing fields (also PAYCLI_NO_INPUT=1)'
complete -c paycli -n '__paycli_at \'history resolve\'' -l allow-insecure-http -d 'allow a plain http:// base URL to a non-loopback host'
complete -c paycli -n '__paycli_at \'history resolve\'' -l lang -x -a 'pt-BR en' -d 'language of messages and help: pt-BR or en (default: config key lang, then LC_ALL/LC_MESSAGES/LANG)'

# paycli status
complete -c paycli -n '__paycli_at \'status\'' -l order-id -x -d 'look it up by the order reference sent as orderId instead'
complete -c paycli -n '__paycli_at \'status\'' -s h -l help -d 'show help'
complete -c paycli -n '__paycli_at \'status\'' -s V -l version -d 'print the version (with --verbose: also Node, the SQLite driver, and where the ledger, config and cache are)'
complete -c paycli -n '__paycli_at \'status\'' -l json -d 'print the result as one JSON document on stdout (errors as JSON on stderr)'
complete -c paycli -n '__paycli_at \'status\'' -l profile -x -a '(__paycli_profiles)' -d 'config profile to use (env PAYCLI_PROFILE; default "default")'
complete -c paycli -n '__paycli_at \'status\'' -l base-url -x -d 'gateway base URL, or "sandbox" (env PAYCLI_BASE_URL)'
complete -c paycli -n '__paycli_at \'status\'' -l timeout -x -d 'request timeout in milliseconds (default 30000)'
complete -c paycli -n '__paycli_at \'status\'' -l verbose -d 'trace the request and response on stderr (credential redacted)'
complete -c paycli -n '__paycli_at \'status\'' -l no-color -d 'no colour (also NO_COLOR=1)'
complete -c paycli -n '__paycli_at \'status\'' -l no-input -d 'never prompt; fail on missing fields (also PAYCLI_NO_INPUT=1)'
complete -c paycli -n '__paycli_at \'status\'' -l allow-insecure-http -d 'allow a plain http:// base URL to a non-loopback host'
complete -c paycli -n '__paycli_at \'status\'' -l lang -x -a 'pt-BR en' -d 'language of messages and help: pt-BR or en (default: config key lang, then LC_ALL/LC_MESSAGES/LANG)'

# paycli balance
complete -c paycli -n '__paycli_at \'balance\'' -s h -l help -d 'show help'
complete -c paycli -n '__paycli_at \'balance\'' -s V -l version -d 'print the version (with --verbose: also Node, the SQLite driver, and where the ledger, config and cache are)'
complete -c paycli -n '__paycli_at \'balance\'' -l json -d 'print the result as one JSON document on stdout (errors as JSON on stderr)'
complete -c paycli -n '__paycli_at \'balance\'' -l profile -x -a '(__paycli_profiles)' -d 'config profile to use (env PAYCLI_PROFILE; default "default")'
complete -c paycli -n '__paycli_at \'balance\'' -l base-url -x -d 'gateway base URL, or "sandbox" (env PAYCLI_BASE_URL)'
complete -c paycli -n '__paycli_at \'balance\'' -l timeout -x -d 'request timeout in milliseconds (default 30000)'
complete -c paycli -n '__paycli_at \'balance\'' -l verbose -d 'trace the request and response on stderr (credential redacted)'
complete -c paycli -n '__paycli_at \'balance\'' -l no-color -d 'no colour (also NO_COLOR=1)'
complete -c paycli -n '__paycli_at \'balance\'' -l no-input -d 'never prompt; fail on missing fields (also PAYCLI_NO_INPUT=1)'
complete -c paycli -n '__paycli_at \'balance\'' -l allow-insecure-http -d 'allow a plain http:// base URL to a non-loopback host'
complete -c paycli -n '__paycli_at \'balance\'' -l lang -x -a 'pt-BR en' -d 'language of messages and help: pt-BR or en (default: config key lang, then LC_ALL/LC_MESSAGES/LANG)'

# paycli reconcile
complete -c paycli -n '__paycli_at \'reconcile\'' -l since -x -d 'only payments recorded since then: 7d, 24h, 30m, or a date such as 2026-11-01'
complete -c paycli -n '__paycli_at \'reconcile\'' -s h -l help -d 'show help'
complete -c paycli -n '__paycli_at \'reconcile\'' -s V -l version -d 'print the version (with --verbose: also Node, the SQLite driver, and where the ledger, config and cache are)'
complete -c paycli -n '__paycli_at \'reconcile\'' -l json -d 'print the result as one JSON document on stdout (errors as JSON on stderr)'
complete -c paycli -n '__paycli_at \'reconcile\'' -l profile -x -a '(__paycli_profiles)' -d 'config profile to use (env PAYCLI_PROFILE; default "default")'
complete -c paycli -n '__paycli_at \'reconcile\'' -l base-url -x -d 'gateway base URL, or "sandbox" (env PAYCLI_BASE_URL)'
complete -c paycli -n '__paycli_at \'reconcile\'' -l timeout -x -d 'request timeout in milliseconds (default 30000)'
complete -c paycli -n '__paycli_at \'reconcile\'' -l verbose -d 'trace the request and response on stderr (credential redacted)'
complete -c paycli -n '__paycli_at \'reconcile\'' -l no-color -d 'no colour (also NO_COLOR=1)'
complete -c paycli -n '__paycli_at \'reconcile\'' -l no-input -d 'never prompt; fail on missing fields (also PAYCLI_NO_INPUT=1)'
complete -c paycli -n '__paycli_at \'reconcile\'' -l allow-insecure-http -d 'allow a plain http:// base URL to a non-loopback host'
complete -c paycli -n '__paycli_at \'reconcile\'' -l lang -x -a 'pt-BR en' -d 'language of messages and help: pt-BR or en (default: config key lang, then LC_ALL/LC_MESSAGES/LANG)'

# paycli listen
complete -c paycli -n '__paycli_at \'listen\'' -l port -x -d 'port to listen on (0 = any free port)'
complete -c paycli -n '__paycli_at \'listen\'' -l host -x -d 'address to listen on'
complete -c paycli -n '__paycli_at \'listen\'' -l forward-to -x -d 'also POST each notification (same body and headers) to this URL'
complete -c paycli -n '__paycli_at \'listen\'' -l secret -x -d 'verify x-paycli-signature with this secret; 401 when it does not match (env PAYCLI_POSTBACK_SECRET)'
complete -c paycli -n '__paycli_at \'listen\'' -s h -l help -d 'show help'
complete -c paycli -n '__paycli_at \'listen\'' -s V -l version -d 'print the version (with --verbose: also Node, the SQLite driver, and where the ledger, config and cache are)'
complete -c paycli -n '__paycli_at \'listen\'' -l json -d 'print the result as one JSON document on stdout (errors as JSON on stderr)'
complete -c paycli -n '__paycli_at \'listen\'' -l profile -x -a '(__paycli_profiles)' -d 'config profile to use (env PAYCLI_PROFILE; default "default")'
complete -c paycli -n '__paycli_at \'listen\'' -l base-url -x -d 'gateway base URL, or "sandbox" (env PAYCLI_BASE_URL)'
complete -c paycli -n '__paycli_at \'listen\'' -l timeout -x -d 'request timeout in milliseconds (default 30000)'
complete -c paycli -n '__paycli_at \'listen\'' -l verbose -d 'trace the request and response on stderr (credential redacted)'
complete -c paycli -n '__paycli_at \'listen\'' -l no-color -d 'no colour (also NO_COLOR=1)'
complete -c paycli -n '__paycli_at \'listen\'' -l no-input -d 'never prompt; fail on missing fields (also PAYCLI_NO_INPUT=1)'
complete -c paycli -n '__paycli_at \'listen\'' -l allow-insecure-http -d 'allow a plain http:// base URL to a non-loopback host'
complete -c paycli -n '__paycli_at \'listen\'' -l lang -x -a 'pt-BR en' -d 'language of messages and help: pt-BR or en (default: config key lang, then LC_ALL/LC_MESSAGES/LANG)'

# paycli brcode
complete -c paycli -n '__paycli_at \'brcode\' 0' -a 'decode' -d 'decode a BR Code (text, - for stdin, or --image) and list every problem with its rule'
complete -c paycli -n '__paycli_at \'brcode\' 0' -a 'qr' -d 'draw a BR Code as a QR code in the terminal, or write it as PNG or SVG'
complete -c paycli -n '__paycli_at \'brcode\' 0' -a 'create' -d 'create a static BR Code for the merchant\'s own PIX key, printed and drawn'
complete -c paycli -n '__paycli_at \'brcode\'' -s h -l help -d 'show help'
complete -c paycli -n '__paycli_at \'brcode\'' -s V -l version -d 'print the version (with --verbose: also Node, the SQLite driver, and where the ledger, config and cache are)'
complete -c paycli -n '__paycli_at \'brcode\'' -l json -d 'print the result as one JSON document on stdout (errors as JSON on stderr)'
complete -c paycli -n '__paycli_at \'brcode\'' -l profile -x -a '(__paycli_profiles)' -d 'config profile to use (env PAYCLI_PROFILE; default "default")'
complete -c paycli -n '__paycli_at \'brcode\'' -l base-url -x -d 'gateway base URL, or "sandbox" (env PAYCLI_BASE_URL)'
complete -c paycli -n '__paycli_at \'brcode\'' -l timeout -x -d 'request timeout in milliseconds (default 30000)'
complete -c paycli -n '__paycli_at \'brcode\'' -l verbose -d 'trace the request and response on stderr (credential redacted)'
complete -c paycli -n '__paycli_at \'brcode\'' -l no-color -d 'no colour (also NO_COLOR=1)'
complete -c paycli -n '__paycli_at \'brcode\'' -l no-input -d 'never prompt; fail on missing fields (also PAYCLI_NO_INPUT=1)'
complete -c paycli -n '__paycli_at \'brcode\'' -l allow-insecure-http -d 'allow a plain http:// base URL to a non-loopback host'
complete -c paycli -n '__paycli_at \'brcode\'' -l lang -x -a 'pt-BR en' -d 'language of messages and help: pt-BR or en (default: config key lang, then LC_ALL/LC_MESSAGES/LANG)'

# paycli brcode decode
complete -c paycli -n '__paycli_at \'brcode decode\'' -l image -x -d 'read the BR Code from the QR code in a PNG image'
complete -c paycli -n '__paycli_at \'brcode decode\'' -s h -l help -d 'show help'
complete -c paycli -n '__paycli_at \'brcode decode\'' -s V -l version -d 'print the version (with --verbose: also Node, the SQLite driver, and where the ledger, config and cache are)'
complete -c paycli -n '__paycli_at \'brcode decode\'' -l json -d 'print the result as one JSON document on stdout (errors as JSON on stderr)'
complete -c paycli -n '__paycli_at \'brcode decode\'' -l profile -x -a '(__paycli_profiles)' -d 'config profile to use (env PAYCLI_PROFILE; default "default")'
complete -c paycli -n '__paycli_at \'brcode decode\'' -l base-url -x -d 'gateway base URL, or "sandbox" (env PAYCLI_BASE_URL)'
complete -c paycli -n '__paycli_at \'brcode decode\'' -l timeout -x -d 'request timeout in milliseconds (default 30000)'
complete -c paycli -n '__paycli_at \'brcode decode\'' -l verbose -d 'trace the request and response on stderr (credential redacted)'
complete -c paycli -n '__paycli_at \'brcode decode\'' -l no-color -d 'no colour (also NO_COLOR=1)'
complete -c paycli -n '__paycli_at \'brcode decode\'' -l no-input -d 'never prompt; fail on missing fields (also PAYCLI_NO_INPUT=1)'
complete -c paycli -n '__paycli_at \'brcode decode\'' -l allow-insecure-http -d 'allow a plain http:// base URL to a non-loopback host'
complete -c paycli -n '__paycli_at \'brcode decode\'' -l lang -x -a 'pt-BR en' -d 'language of messages and help: pt-BR or en (default: config key lang, then LC_ALL/LC_MESSAGES/LANG)'

# paycli brcode qr
complete -c paycli -n '__paycli_at \'brcode qr\'' -l png -x -d 'write the QR code as a PNG image'
complete -c paycli -n '__paycli_at \'brcode qr\'' -l svg -x -d 'write the QR code as an SVG image'
complete -c paycli -n '__paycli_at \'brcode qr\'' -s h -l help -d 'show help'
complete -c paycli -n '__paycli_at \'brcode qr\'' -s V -l version -d 'print the version (with --verbose: also Node, the SQLite driver, and where the ledger, config and cache are)'
complete -c paycli -n '__paycli_at \'brcode qr\'' -l json -d 'print the result as one JSON document on stdout (errors as JSON on stderr)'
complete -c paycli -n '__paycli_at \'brcode qr\'' -l profile -x -a '(__paycli_profiles)' -d 'config profile to use (env PAYCLI_PROFILE; default "default")'
complete -c paycli -n '__paycli_at \'brcode qr\'' -l base-url -x -d 'gateway base URL, or "sandbox" (env PAYCLI_BASE_URL)'
complete -c paycli -n '__paycli_at \'brcode qr\'' -l timeout -x -d 'request timeout in milliseconds (default 30000)'
complete -c paycli -n '__paycli_at \'brcode qr\'' -l verbose -d 'trace the request and response on stderr (credential redacted)'
complete -c paycli -n '__paycli_at \'brcode qr\'' -l no-color -d 'no colour (also NO_COLOR=1)'
complete -c paycli -n '__paycli_at \'brcode qr\'' -l no-input -d 'never prompt; fail on missing fields (also PAYCLI_NO_INPUT=1)'
complete -c paycli -n '__paycli_at \'brcode qr\'' -l allow-insecure-http -d 'allow a plain http:// base URL to a non-loopback host'
complete -c paycli -n '__paycli_at \'brcode qr\'' -l lang -x -a 'pt-BR en' -d 'language of messages and help: pt-BR or en (default: config key lang, then LC_ALL/LC_MESSAGES/LANG)'

# paycli brcode create
complete -c paycli -n '__paycli_at \'brcode create\'' -l key -x -d 'PIX key that receives: CPF, CNPJ, +55 phone, e-mail or random key'
complete -c paycli -n '__paycli_at \'brcode create\'' -l key-type -x -d 'the type of --key, needed when 11 bare digits are both a CPF and a mobile number: cpf, cnpj, email, phone, random'
complete -c paycli -n '__paycli_at \'brcode create\'' -l value -x -d 'fixed amount in cents (1000 = R$ 10,00); omit it and the payer types the amount'
complete -c paycli -n '__paycli_at \'brcode create\'' -l amount -x -d 'fixed amount in reais instead of --value: 15, 15,50, 1.234,56'
complete -c paycli -n '__paycli_at \'brcode create\'' -l name -x -d 'merchant name, at most 25 characters (accents are dropped)'
complete -c paycli -n '__paycli_at \'brcode create\'' -l city -x -d 'merchant city, at most 15 characters (accents are dropped)'
complete -c paycli -n '__paycli_at \'brcode create\'' -l txid -x -d 'reference label: 1-25 letters and digits (default *** = none)'
complete -c paycli -n '__paycli_at \'brcode create\'' -l info -x -d 'additional information shown to the payer'
complete -c paycli -n '__paycli_at \'brcode create\'' -l png -x -d 'also write the QR code as a PNG image'
complete -c paycli -n '__paycli_at \'brcode create\'' -s h -l help -d 'show help'
complete -c paycli -n '__paycli_at \'brcode create\'' -s V -l version -d 'print the version (with --verbose: also Node, the SQLite driver, and where the ledger, config and cache are)'
complete -c paycli -n '__paycli_at \'brcode create\'' -l json -d 'print the result as one JSON document on stdout (errors as JSON on stderr)'
complete -c paycli -n '__paycli_at \'brcode create\'' -l profile -x -a '(__paycli_profiles)' -d 'config profile to use (env PAYCLI_PROFILE; default "default")'
complete -c paycli -n '__paycli_at \'brcode create\'' -l base-url -x -d 'gateway base URL, or "sandbox" (env PAYCLI_BASE_URL)'
complete -c paycli -n '__paycli_at \'brcode create\'' -l timeout -x -d 'request timeout in milliseconds (default 30000)'
complete -c paycli -n '__paycli_at \'brcode create\'' -l verbose -d 'trace the request and response on stderr (credential redacted)'
complete -c paycli -n '__paycli_at \'brcode create\'' -l no-color -d 'no colour (also NO_COLOR=1)'
complete -c paycli -n '__paycli_at \'brcode create\'' -l no-input -d 'never prompt; fail on missing fields (also PAYCLI_NO_INPUT=1)'
complete -c paycli -n '__paycli_at \'brcode create\'' -l allow-insecure-http -d 'allow a plain http:// base URL to a non-loopback host'
complete -c paycli -n '__paycli_at \'brcode create\'' -l lang -x -a 'pt-BR en' -d 'language of messages and help: pt-BR or en (default: config key lang, then LC_ALL/LC_MESSAGES/LANG)'

# paycli completion
complete -c paycli -n '__paycli_at \'completion\' 0' -a 'bash zsh fish'
complete -c paycli -n '__paycli_at \'completion\'' -s h -l help -d 'show help'
complete -c paycli -n '__paycli_at \'completion\'' -s V -l version -d 'print the version (with --verbose: also Node, the SQLite driver, and where the ledger, config and cache are)'
complete -c paycli -n '__paycli_at \'completion\'' -l json -d 'print the result as one JSON document on stdout (errors as JSON on stderr)'
complete -c paycli -n '__paycli_at \'completion\'' -l profile -x -a '(__paycli_profiles)' -d 'config profile to use (env PAYCLI_PROFILE; default "default")'
complete -c paycli -n '__paycli_at \'completion\'' -l base-url -x -d 'gateway base URL, or "sandbox" (env PAYCLI_BASE_URL)'
complete -c paycli -n '__paycli_at \'completion\'' -l timeout -x -d 'request timeout in milliseconds (default 30000)'
complete -c paycli -n '__paycli_at \'completion\'' -l verbose -d 'trace the request and response on stderr (credential redacted)'
complete -c paycli -n '__paycli_at \'completion\'' -l no-color -d 'no colour (also NO_COLOR=1)'
complete -c paycli -n '__paycli_at \'completion\'' -l no-input -d 'never prompt; fail on missing fields (also PAYCLI_NO_INPUT=1)'
complete -c paycli -n '__paycli_at \'completion\'' -l allow-insecure-http -d 'allow a plain http:// base URL to a non-loopback host'
complete -c paycli -n '__paycli_at \'completion\'' -l lang -x -a 'pt-BR en' -d 'language of messages and help: pt-BR or en (default: config key lang, then LC_ALL/LC_MESSAGES/LANG)'

# paycli help
complete -c paycli -n '__paycli_at \'help\' 0' -a 'cashin' -d 'create a PIX cash-in: the gateway answers with a BR Code (QR code) for the payer to pay'
complete -c paycli -n '__paycli_at \'help\' 0' -a 'cashout' -d 'send a PIX cash-out (a payout) to a PIX key; asks for confirmation, or --yes'
complete -c paycli -n '__paycli_at \'help\' 0' -a 'config' -d 'read and change settings, per profile (--profile or PAYCLI_PROFILE)'
complete -c paycli -n '__paycli_at \'help\' 0' -a 'auth' -d 'log a profile in to its gateway: the API key checked, and kept in the system keychain'
complete -c paycli -n '__paycli_at \'help\' 0' -a 'sandbox' -d 'run the built-in sandbox gateway standalone (no money moves), for other programs and tests'
complete -c paycli -n '__paycli_at \'help\' 0' -a 'history' -d 'list the cash-ins and cash-outs this machine sent (newest first), from the local ledger'
complete -c paycli -n '__paycli_at \'help\' 0' -a 'status' -d 'ask the gateway about one transaction, by its id or by your order reference (beyond the interface)'
complete -c paycli -n '__paycli_at \'help\' 0' -a 'balance' -d 'show the account\'s balance at the gateway (beyond the interface)'
complete -c paycli -n '__paycli_at \'help\' 0' -a 'reconcile' -d 'settle every payment whose outcome is unknown by asking the gateway for its order reference'
complete -c paycli -n '__paycli_at \'help\' 0' -a 'listen' -d 'receive postbacks (payment notifications), print each one, optionally forward them to your app'
complete -c paycli -n '__paycli_at \'help\' 0' -a 'brcode' -d 'inspect, draw and create PIX BR Codes ("copia e cola" / QR code payloads)'
complete -c paycli -n '__paycli_at \'help\' 0' -a 'completion' -d 'print the shell completion script for bash, zsh or fish'
complete -c paycli -n '__paycli_at \'help\'' -s h -l help -d 'show help'
complete -c paycli -n '__paycli_at \'help\'' -s V -l version -d 'print the version (with --verbose: also Node, the SQLite driver, and where the ledger, config and cache are)'
complete -c paycli -n '__paycli_at \'help\'' -l json -d 'print the result as one JSON document on stdout (errors as JSON on stderr)'
complete -c paycli -n '__paycli_at \'help\'' -l profile -x -a '(__paycli_profiles)' -d 'config profile to use (env PAYCLI_PROFILE; default "default")'
complete -c paycli -n '__paycli_at \'help\'' -l base-url -x -d 'gateway base URL, or "sandbox" (env PAYCLI_BASE_URL)'
complete -c paycli -n '__paycli_at \'help\'' -l timeout -x -d 'request timeout in milliseconds (default 30000)'
complete -c paycli -n '__paycli_at \'help\'' -l verbose -d 'trace the request and response on stderr (credential redacted)'
complete -c paycli -n '__paycli_at \'help\'' -l no-color -d 'no colour (also NO_COLOR=1)'
complete -c paycli -n '__paycli_at \'help\'' -l no-input -d 'never prompt; fail on missing fields (also PAYCLI_NO_INPUT=1)'
complete -c paycli -n '__paycli_at \'help\'' -l allow-insecure-http -d 'allow a plain http:// base URL to a non-loopback host'
complete -c paycli -n '__paycli_at \'help\'' -l lang -x -a 'pt-BR en' -d 'language of messages and help: pt-BR or en (default: config key lang, then LC_ALL/LC_MESSAGES/LANG)'
