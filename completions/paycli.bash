# bash completion for paycli. Generated from paycli's command tree by src/completion/
# (`paycli completion bash`; in the repository, `npm run completions`). Do not edit.
# Completing commands and flags runs nothing but the shell; profile names are read from the
# config file with awk. Regenerate after upgrading paycli.
# Install: paycli completion bash > ~/.local/share/bash-completion/completions/paycli
#      or: paycli completion bash > ~/.paycli.bash && echo 'source ~/.paycli.bash' >> ~/.bashrc

# Sets subs (subcommands), flags (every flag), vflags (flags that take a value) and varg (index
# of a variadic last argument, if any) for a command path.
__paycli_spec() {
  case $1 in
    '')
      subs='cashin cashout config auth sandbox history status receipt balance reconcile ledger listen brcode completion help'
      flags='--version -V --json --jq --template --profile --base-url --timeout --verbose --no-color --no-input --allow-insecure-http --lang --help -h'
      vflags='--jq --template --profile --base-url --timeout --lang'
      varg='' ;;
    'cashin')
      subs=''
      flags='--value --amount --payer-name --payer-document --payer-email --payer-phone --product-name --product-description --postback-url --split --order-id --input --encoding --dry-run --qr --no-qr --qr-file --batch --batch-format --qr-dir --concurrency --rate --results --csv-dialect --retry-refused --wait --watch --watch-timeout --until --allow-duplicate --yes -y --help -h --version -V --json --jq --template --profile --base-url --timeout --verbose --no-color --no-input --allow-insecure-http --lang'
      vflags='--value --amount --payer-name --payer-document --payer-email --payer-phone --product-name --product-description --postback-url --split --order-id --input --encoding --qr-file --batch --batch-format --qr-dir --concurrency --rate --results --csv-dialect --watch-timeout --until --jq --template --profile --base-url --timeout --lang'
      varg='' ;;
    'cashout')
      subs=''
      flags='--value --amount --pix-key-type --pix-key --cpf-cnpj --person-name --person-email --person-phone --order-id --postback-url --input --encoding --dry-run --yes -y --allow-duplicate --batch --batch-format --concurrency --rate --results --csv-dialect --retry-refused --wait --help -h --version -V --json --jq --template --profile --base-url --timeout --verbose --no-color --no-input --allow-insecure-http --lang'
      vflags='--value --amount --pix-key-type --pix-key --cpf-cnpj --person-name --person-email --person-phone --order-id --postback-url --input --encoding --batch --batch-format --concurrency --rate --results --csv-dialect --jq --template --profile --base-url --timeout --lang'
      varg='' ;;
    'config')
      subs='set get unset list profiles path'
      flags='--help -h --version -V --json --jq --template --profile --base-url --timeout --verbose --no-color --no-input --allow-insecure-http --lang'
      vflags='--jq --template --profile --base-url --timeout --lang'
      varg='' ;;
    'config set')
      subs=''
      flags='--create --help -h --version -V --json --jq --template --profile --base-url --timeout --verbose --no-color --no-input --allow-insecure-http --lang'
      vflags='--jq --template --profile --base-url --timeout --lang'
      varg='' ;;
    'config get')
      subs=''
      flags='--help -h --version -V --json --jq --template --profile --base-url --timeout --verbose --no-color --no-input --allow-insecure-http --lang'
      vflags='--jq --template --profile --base-url --timeout --lang'
      varg='' ;;
    'config unset')
      subs=''
      flags='--help -h --version -V --json --jq --template --profile --base-url --timeout --verbose --no-color --no-input --allow-insecure-http --lang'
      vflags='--jq --template --profile --base-url --timeout --lang'
      varg='' ;;
    'config list')
      subs=''
      flags='--help -h --version -V --json --jq --template --profile --base-url --timeout --verbose --no-color --no-input --allow-insecure-http --lang'
      vflags='--jq --template --profile --base-url --timeout --lang'
      varg='' ;;
    'config profiles')
      subs=''
      flags='--help -h --version -V --json --jq --template --profile --base-url --timeout --verbose --no-color --no-input --allow-insecure-http --lang'
      vflags='--jq --template --profile --base-url --timeout --lang'
      varg='' ;;
    'config path')
      subs=''
      flags='--help -h --version -V --json --jq --template --profile --base-url --timeout --verbose --no-color --no-input --allow-insecure-http --lang'
      vflags='--jq --template --profile --base-url --timeout --lang'
      varg='' ;;
    'auth')
      subs='login status logout'
      flags='--help -h --version -V --json --jq --template --profile --base-url --timeout --verbose --no-color --no-input --allow-insecure-http --lang'
      vflags='--jq --template --profile --base-url --timeout --lang'
      varg='' ;;
    'auth login')
      subs=''
      flags='--no-check --help -h --version -V --json --jq --template --profile --base-url --timeout --verbose --no-color --no-input --allow-insecure-http --lang'
      vflags='--jq --template --profile --base-url --timeout --lang'
      varg='' ;;
    'auth status')
      subs=''
      flags='--help -h --version -V --json --jq --template --profile --base-url --timeout --verbose --no-color --no-input --allow-insecure-http --lang'
      vflags='--jq --template --profile --base-url --timeout --lang'
      varg='' ;;
    'auth logout')
      subs=''
      flags='--help -h --version -V --json --jq --template --profile --base-url --timeout --verbose --no-color --no-input --allow-insecure-http --lang'
      vflags='--jq --template --profile --base-url --timeout --lang'
      varg='' ;;
    'sandbox')
      subs='pay fail cancel refund infraction ping events reset resend failure'
      flags='--port --host --api-key --no-acquirer --postback-secret --auto-pay --webhook-url --strict --drop-after-create --retry-for --retry-schedule --data-dir --keep-events --opening-balance --failure --open --no-dashboard --help -h --version -V --json --jq --template --profile --base-url --timeout --verbose --no-color --no-input --allow-insecure-http --lang'
      vflags='--port --host --api-key --postback-secret --auto-pay --webhook-url --drop-after-create --retry-for --retry-schedule --data-dir --keep-events --opening-balance --failure --jq --template --profile --base-url --timeout --lang'
      varg='' ;;
    'sandbox pay')
      subs=''
      flags='--sandbox-url --api-key --help -h --port --host --no-acquirer --postback-secret --auto-pay --webhook-url --strict --drop-after-create --retry-for --retry-schedule --data-dir --keep-events --opening-balance --failure --open --no-dashboard --version -V --json --jq --template --profile --base-url --timeout --verbose --no-color --no-input --allow-insecure-http --lang'
      vflags='--sandbox-url --api-key --port --host --postback-secret --auto-pay --webhook-url --drop-after-create --retry-for --retry-schedule --data-dir --keep-events --opening-balance --failure --jq --template --profile --base-url --timeout --lang'
      varg='' ;;
    'sandbox fail')
      subs=''
      flags='--sandbox-url --api-key --help -h --port --host --no-acquirer --postback-secret --auto-pay --webhook-url --strict --drop-after-create --retry-for --retry-schedule --data-dir --keep-events --opening-balance --failure --open --no-dashboard --version -V --json --jq --template --profile --base-url --timeout --verbose --no-color --no-input --allow-insecure-http --lang'
      vflags='--sandbox-url --api-key --port --host --postback-secret --auto-pay --webhook-url --drop-after-create --retry-for --retry-schedule --data-dir --keep-events --opening-balance --failure --jq --template --profile --base-url --timeout --lang'
      varg='' ;;
    'sandbox cancel')
      subs=''
      flags='--sandbox-url --api-key --help -h --port --host --no-acquirer --postback-secret --auto-pay --webhook-url --strict --drop-after-create --retry-for --retry-schedule --data-dir --keep-events --opening-balance --failure --open --no-dashboard --version -V --json --jq --template --profile --base-url --timeout --verbose --no-color --no-input --allow-insecure-http --lang'
      vflags='--sandbox-url --api-key --port --host --postback-secret --auto-pay --webhook-url --drop-after-create --retry-for --retry-schedule --data-dir --keep-events --opening-balance --failure --jq --template --profile --base-url --timeout --lang'
      varg='' ;;
    'sandbox refund')
      subs=''
      flags='--sandbox-url --api-key --help -h --port --host --no-acquirer --postback-secret --auto-pay --webhook-url --strict --drop-after-create --retry-for --retry-schedule --data-dir --keep-events --opening-balance --failure --open --no-dashboard --version -V --json --jq --template --profile --base-url --timeout --verbose --no-color --no-input --allow-insecure-http --lang'
      vflags='--sandbox-url --api-key --port --host --postback-secret --auto-pay --webhook-url --drop-after-create --retry-for --retry-schedule --data-dir --keep-events --opening-balance --failure --jq --template --profile --base-url --timeout --lang'
      varg='' ;;
    'sandbox infraction')
      subs=''
      flags='--sandbox-url --api-key --help -h --port --host --no-acquirer --postback-secret --auto-pay --webhook-url --strict --drop-after-create --retry-for --retry-schedule --data-dir --keep-events --opening-balance --failure --open --no-dashboard --version -V --json --jq --template --profile --base-url --timeout --verbose --no-color --no-input --allow-insecure-http --lang'
      vflags='--sandbox-url --api-key --port --host --postback-secret --auto-pay --webhook-url --drop-after-create --retry-for --retry-schedule --data-dir --keep-events --opening-balance --failure --jq --template --profile --base-url --timeout --lang'
      varg='' ;;
    'sandbox ping')
      subs=''
      flags='--sandbox-url --api-key --help -h --port --host --no-acquirer --postback-secret --auto-pay --webhook-url --strict --drop-after-create --retry-for --retry-schedule --data-dir --keep-events --opening-balance --failure --open --no-dashboard --version -V --json --jq --template --profile --base-url --timeout --verbose --no-color --no-input --allow-insecure-http --lang'
      vflags='--sandbox-url --api-key --port --host --postback-secret --auto-pay --webhook-url --drop-after-create --retry-for --retry-schedule --data-dir --keep-events --opening-balance --failure --jq --template --profile --base-url --timeout --lang'
      varg='' ;;
    'sandbox events')
      subs=''
      flags='--failed --transaction --limit --sandbox-url --api-key --help -h --port --host --no-acquirer --postback-secret --auto-pay --webhook-url --strict --drop-after-create --retry-for --retry-schedule --data-dir --keep-events --opening-balance --failure --open --no-dashboard --version -V --json --jq --template --profile --base-url --timeout --verbose --no-color --no-input --allow-insecure-http --lang'
      vflags='--transaction --limit --sandbox-url --api-key --port --host --postback-secret --auto-pay --webhook-url --drop-after-create --retry-for --retry-schedule --data-dir --keep-events --opening-balance --failure --jq --template --profile --base-url --timeout --lang'
      varg='' ;;
    'sandbox reset')
      subs=''
      flags='--data-dir --help -h --port --host --api-key --no-acquirer --postback-secret --auto-pay --webhook-url --strict --drop-after-create --retry-for --retry-schedule --keep-events --opening-balance --failure --open --no-dashboard --version -V --json --jq --template --profile --base-url --timeout --verbose --no-color --no-input --allow-insecure-http --lang'
      vflags='--data-dir --port --host --api-key --postback-secret --auto-pay --webhook-url --drop-after-create --retry-for --retry-schedule --keep-events --opening-balance --failure --jq --template --profile --base-url --timeout --lang'
      varg='' ;;
    'sandbox resend')
      subs=''
      flags='--failed --sandbox-url --api-key --help -h --port --host --no-acquirer --postback-secret --auto-pay --webhook-url --strict --drop-after-create --retry-for --retry-schedule --data-dir --keep-events --opening-balance --failure --open --no-dashboard --version -V --json --jq --template --profile --base-url --timeout --verbose --no-color --no-input --allow-insecure-http --lang'
      vflags='--sandbox-url --api-key --port --host --postback-secret --auto-pay --webhook-url --drop-after-create --retry-for --retry-schedule --data-dir --keep-events --opening-balance --failure --jq --template --profile --base-url --timeout --lang'
      varg='' ;;
    'sandbox failure')
      subs=''
      flags='--pix-key --value --clear --sandbox-url --api-key --help -h --port --host --no-acquirer --postback-secret --auto-pay --webhook-url --strict --drop-after-create --retry-for --retry-schedule --data-dir --keep-events --opening-balance --failure --open --no-dashboard --version -V --json --jq --template --profile --base-url --timeout --verbose --no-color --no-input --allow-insecure-http --lang'
      vflags='--pix-key --value --sandbox-url --api-key --port --host --postback-secret --auto-pay --webhook-url --drop-after-create --retry-for --retry-schedule --data-dir --keep-events --opening-balance --failure --jq --template --profile --base-url --timeout --lang'
      varg='' ;;
    'history')
      subs='resolve'
      flags='--since --until --kind --outcome --order-id --by --limit --format --csv-dialect --help -h --version -V --json --jq --template --profile --base-url --timeout --verbose --no-color --no-input --allow-insecure-http --lang'
      vflags='--since --until --kind --outcome --order-id --by --limit --format --csv-dialect --jq --template --profile --base-url --timeout --lang'
      varg='' ;;
    'history resolve')
      subs=''
      flags='--outcome --note --force --help -h --since --until --kind --order-id --by --limit --format --csv-dialect --version -V --json --jq --template --profile --base-url --timeout --verbose --no-color --no-input --allow-insecure-http --lang'
      vflags='--outcome --note --since --until --kind --order-id --by --limit --format --csv-dialect --jq --template --profile --base-url --timeout --lang'
      varg='' ;;
    'status')
      subs=''
      flags='--order-id --watch --watch-timeout --until --help -h --version -V --json --jq --template --profile --base-url --timeout --verbose --no-color --no-input --allow-insecure-http --lang'
      vflags='--order-id --watch-timeout --until --jq --template --profile --base-url --timeout --lang'
      varg='' ;;
    'receipt')
      subs=''
      flags='--order-id --format --paper --output -o --help -h --version -V --json --jq --template --profile --base-url --timeout --verbose --no-color --no-input --allow-insecure-http --lang'
      vflags='--order-id --format --paper --output -o --jq --template --profile --base-url --timeout --lang'
      varg='' ;;
    'balance')
      subs=''
      flags='--help -h --version -V --json --jq --template --profile --base-url --timeout --verbose --no-color --no-input --allow-insecure-http --lang'
      vflags='--jq --template --profile --base-url --timeout --lang'
      varg='' ;;
    'reconcile')
      subs=''
      flags='--since --help -h --version -V --json --jq --template --profile --base-url --timeout --verbose --no-color --no-input --allow-insecure-http --lang'
      vflags='--since --jq --template --profile --base-url --timeout --lang'
      varg='' ;;
    'ledger')
      subs='migrate push'
      flags='--help -h --version -V --json --jq --template --profile --base-url --timeout --verbose --no-color --no-input --allow-insecure-http --lang'
      vflags='--jq --template --profile --base-url --timeout --lang'
      varg='' ;;
    'ledger migrate')
      subs=''
      flags='--help -h --version -V --json --jq --template --profile --base-url --timeout --verbose --no-color --no-input --allow-insecure-http --lang'
      vflags='--jq --template --profile --base-url --timeout --lang'
      varg='' ;;
    'ledger push')
      subs=''
      flags='--help -h --version -V --json --jq --template --profile --base-url --timeout --verbose --no-color --no-input --allow-insecure-http --lang'
      vflags='--jq --template --profile --base-url --timeout --lang'
      varg='' ;;
    'listen')
      subs=''
      flags='--port --host --forward-to --secret --help -h --version -V --json --jq --template --profile --base-url --timeout --verbose --no-color --no-input --allow-insecure-http --lang'
      vflags='--port --host --forward-to --secret --jq --template --profile --base-url --timeout --lang'
      varg='' ;;
    'brcode')
      subs='decode qr create'
      flags='--help -h --version -V --json --jq --template --profile --base-url --timeout --verbose --no-color --no-input --allow-insecure-http --lang'
      vflags='--jq --template --profile --base-url --timeout --lang'
      varg='' ;;
    'brcode decode')
      subs=''
      flags='--image --help -h --version -V --json --jq --template --profile --base-url --timeout --verbose --no-color --no-input --allow-insecure-http --lang'
      vflags='--image --jq --template --profile --base-url --timeout --lang'
      varg='' ;;
    'brcode qr')
      subs=''
      flags='--png --svg --help -h --version -V --json --jq --template --profile --base-url --timeout --verbose --no-color --no-input --allow-insecure-http --lang'
      vflags='--png --svg --jq --template --profile --base-url --timeout --lang'
      varg='' ;;
    'brcode create')
      subs=''
      flags='--key --key-type --value --amount --name --city --txid --info --png --help -h --version -V --json --jq --template --profile --base-url --timeout --verbose --no-color --no-input --allow-insecure-http --lang'
      vflags='--key --key-type --value --amount --name --city --txid --info --png --jq --template --profile --base-url --timeout --lang'
      varg='' ;;
    'completion')
      subs=''
      flags='--help -h --version -V --json --jq --template --profile --base-url --timeout --verbose --no-color --no-input --allow-insecure-http --lang'
      vflags='--jq --template --profile --base-url --timeout --lang'
      varg='' ;;
    'help')
      subs=''
      flags='--man --help -h --version -V --json --jq --template --profile --base-url --timeout --verbose --no-color --no-input --allow-insecure-http --lang'
      vflags='--jq --template --profile --base-url --timeout --lang'
      varg='0' ;;
    *) subs='' flags='' vflags='' varg='' ;;
  esac
}

# __paycli_values PATH SLOT CUR: completes the value of a flag (SLOT --flag) or of the
# positional argument SLOT #index of the command PATH.
__paycli_values() {
  case "$1:$2" in
    ':--profile'|'cashin:--profile'|'cashout:--profile'|'config:--profile'|'config set:--profile'|'config get:--profile'|'config unset:--profile'|'config list:--profile'|'config profiles:--profile'|'config path:--profile'|'auth:--profile'|'auth login:--profile'|'auth status:--profile'|'auth logout:--profile'|'sandbox:--profile'|'sandbox pay:--profile'|'sandbox fail:--profile'|'sandbox cancel:--profile'|'sandbox refund:--profile'|'sandbox infraction:--profile'|'sandbox ping:--profile'|'sandbox events:--profile'|'sandbox reset:--profile'|'sandbox resend:--profile'|'sandbox failure:--profile'|'history:--profile'|'history resolve:--profile'|'status:--profile'|'receipt:--profile'|'balance:--profile'|'reconcile:--profile'|'ledger:--profile'|'ledger migrate:--profile'|'ledger push:--profile'|'listen:--profile'|'brcode:--profile'|'brcode decode:--profile'|'brcode qr:--profile'|'brcode create:--profile'|'completion:--profile'|'help:--profile')
      __paycli_lines "$3" < <(__paycli_profiles) ;;
    ':--lang'|'cashin:--lang'|'cashout:--lang'|'config:--lang'|'config set:--lang'|'config get:--lang'|'config unset:--lang'|'config list:--lang'|'config profiles:--lang'|'config path:--lang'|'auth:--lang'|'auth login:--lang'|'auth status:--lang'|'auth logout:--lang'|'sandbox:--lang'|'sandbox pay:--lang'|'sandbox fail:--lang'|'sandbox cancel:--lang'|'sandbox refund:--lang'|'sandbox infraction:--lang'|'sandbox ping:--lang'|'sandbox events:--lang'|'sandbox reset:--lang'|'sandbox resend:--lang'|'sandbox failure:--lang'|'history:--lang'|'history resolve:--lang'|'status:--lang'|'receipt:--lang'|'balance:--lang'|'reconcile:--lang'|'ledger:--lang'|'ledger migrate:--lang'|'ledger push:--lang'|'listen:--lang'|'brcode:--lang'|'brcode decode:--lang'|'brcode qr:--lang'|'brcode create:--lang'|'completion:--lang'|'help:--lang')
      __paycli_words 'pt-BR en' "$3" ;;
    'cashin:--input'|'cashin:--qr-file'|'cashout:--input')
      __paycli_files "$3" ;;
    'cashin:--encoding'|'cashout:--encoding')
      __paycli_words 'utf-8 windows-1252 latin1' "$3" ;;
    'cashin:--csv-dialect'|'cashout:--csv-dialect'|'history:--csv-dialect'|'history resolve:--csv-dialect')
      __paycli_words 'br intl' "$3" ;;
    'cashin:--json')
      __paycli_words 'kind transactionId externalId orderId value qrCode qrCodeBase64 sandbox ledgerEntry gateway status statusCode method endToEndId processedAt payer destinationBank foundByOrderId dryRun url headers body' "$3" ;;
    'cashout:--pix-key-type')
      __paycli_words 'cpf cnpj email phone random' "$3" ;;
    'cashout:--json')
      __paycli_words 'kind transactionId orderId gross tax liquid status statusCode createdAt sandbox ledgerEntry gateway value method endToEndId processedAt payer destinationBank foundByOrderId dryRun url headers body' "$3" ;;
    'config set:#0'|'config get:#0'|'config unset:#0')
      __paycli_words 'base-url cashin-base-url cashout-base-url api-key api-key-store auth-header allow-insecure-http lang timeout settle-after duplicate-window order-id lookup lookup-base-url status-path status-by-order-path ledger-url ledger-password balance-path header.' "$3" ;;
    'config get:--json')
      __paycli_words 'profile key value' "$3" ;;
    'config list:--json')
      __paycli_words 'profile values' "$3" ;;
    'config profiles:--json')
      __paycli_words 'profiles' "$3" ;;
    'config path:--json')
      __paycli_words 'path' "$3" ;;
    'auth login:--json')
      __paycli_words 'profile gateway store checked' "$3" ;;
    'auth status:--json')
      __paycli_words 'profile gateway store key accepted problem' "$3" ;;
    'auth logout:--json')
      __paycli_words 'profile removed' "$3" ;;
    'sandbox:--retry-schedule'|'sandbox pay:--retry-schedule'|'sandbox fail:--retry-schedule'|'sandbox cancel:--retry-schedule'|'sandbox refund:--retry-schedule'|'sandbox infraction:--retry-schedule'|'sandbox ping:--retry-schedule'|'sandbox events:--retry-schedule'|'sandbox reset:--retry-schedule'|'sandbox resend:--retry-schedule'|'sandbox failure:--retry-schedule')
      __paycli_words 'standard fast' "$3" ;;
    'sandbox pay:--json'|'sandbox fail:--json'|'sandbox cancel:--json'|'sandbox refund:--json'|'sandbox infraction:--json')
      __paycli_words 'transactionId kind status previousStatus postback' "$3" ;;
    'sandbox ping:--json')
      __paycli_words 'url delivered outcome' "$3" ;;
    'sandbox events:--json'|'sandbox resend:--json')
      __paycli_words 'id transactionId object status url state attempts createdAt deliveredAt nextAttemptAt lastAttempts' "$3" ;;
    'sandbox reset:--json')
      __paycli_words 'dataDir removed' "$3" ;;
    'sandbox failure:--json')
      __paycli_words 'cleared failure pixKey value' "$3" ;;
    'history:--kind'|'history resolve:--kind')
      __paycli_words 'cashin cashout' "$3" ;;
    'history:--outcome')
      __paycli_words 'ok refused unknown not_sent' "$3" ;;
    'history:--format'|'history resolve:--format')
      __paycli_words 'table json csv ofx' "$3" ;;
    'history:--json'|'history resolve:--json')
      __paycli_words 'id uuid time kind value target endpoint sandbox profile pixKeyType pixKey recipient payer product orderId batchId batchRow allowDuplicate overrides outcome completed endTime transactionId status statusCode httpStatus message resolvedBy resolvedTime note timeMs deadlineMs runId pid user host version answer' "$3" ;;
    'history resolve:--outcome')
      __paycli_words 'ok not_sent refused' "$3" ;;
    'status:--json')
      __paycli_words 'kind transactionId orderId value status statusCode method endToEndId processedAt payer destinationBank foundByOrderId ledgerEntry gateway' "$3" ;;
    'receipt:--format')
      __paycli_words 'pdf png json' "$3" ;;
    'receipt:--paper')
      __paycli_words 'a4 80mm' "$3" ;;
    'receipt:--json')
      __paycli_words 'kind entry transactionId orderId endToEndId externalId value fee net time status payer recipient brCode product gateway profile sandbox file' "$3" ;;
    'balance:--json')
      __paycli_words 'balance retention toAnticipate finalBalance gateway' "$3" ;;
    'reconcile:--json')
      __paycli_words 'entries settled unknown' "$3" ;;
    'ledger migrate:--json')
      __paycli_words 'from to' "$3" ;;
    'ledger push:--json')
      __paycli_words 'entries added' "$3" ;;
    'brcode decode:--json'|'brcode qr:--json'|'brcode create:--json')
      __paycli_words 'brCode valid kind initiation key url info recurrenceUrl merchantCategoryCode currency amountCents country merchantName merchantCity postalCode txid crc unknown problems' "$3" ;;
    'completion:--json')
      __paycli_words 'shell script' "$3" ;;
    'completion:#0')
      __paycli_words 'bash zsh fish' "$3" ;;
    'help:#0')
      __paycli_words 'cashin cashout config auth sandbox history status receipt balance reconcile ledger listen brcode completion' "$3" ;;
  esac
  return 0
}

# __paycli_profile_names FILE: the profile names in a paycli config file, one a line.
__paycli_profile_names() {
  awk '{ s = s $0 "\n" }
END {
  n = length(s); depth = 0; instr = 0; esc = 0; key = 0; pend = 0; inprof = 0
  for (i = 1; i <= n; i++) {
    c = substr(s, i, 1)
    if (instr) {
      if (esc) { tok = tok c; esc = 0 }
      else if (c == "\\") esc = 1
      else if (c == "\"") { instr = 0; key = 1 }
      else tok = tok c
      continue
    }
    if (c == "\"") { instr = 1; tok = ""; key = 0; pend = 0; continue }
    if (c == " " || c == "\t" || c == "\n" || c == "\r") continue
    if (c == ":") { if (key && depth == 1 && tok == "profiles") pend = 1; else if (key && inprof && depth == 2) print tok; key = 0; continue }
    if (c == "{" || c == "[") { depth++; if (pend && c == "{" && depth == 2) inprof = 1; pend = 0; key = 0; continue }
    if (c == "}" || c == "]") { depth--; if (depth < 2) inprof = 0; pend = 0; key = 0; continue }
    key = 0; pend = 0
  }
}
' "$1"
}

# The static body of paycli's bash completion (src/cli/completion/bash.ts puts the generated data in
# front of it: __paycli_spec, __paycli_values and __paycli_profile_names). Linted by shellcheck
# (test/e2e/completion-lint.test.ts).

# COMPREPLY = the lines of stdin.
__paycli_reply() {
  local line
  COMPREPLY=()
  while IFS= read -r line; do COMPREPLY+=("$line"); done
}

# __paycli_words WORDS CUR: the words starting with CUR; a single prefix ending in "." gets no space.
__paycli_words() {
  __paycli_reply < <(compgen -W "$1" -- "$2")
  if [[ ${#COMPREPLY[@]} -eq 1 && ${COMPREPLY[0]} == *. ]]; then compopt -o nospace 2>/dev/null; fi
  return 0
}

# __paycli_lines CUR: the lines of stdin starting with CUR.
__paycli_lines() {
  local line
  COMPREPLY=()
  while IFS= read -r line; do [[ $line == "$1"* ]] && COMPREPLY+=("$line"); done
  return 0
}

__paycli_files() {
  compopt -o filenames 2>/dev/null
  __paycli_reply < <(compgen -f -- "$1")
}

# The path of paycli's config file (as src/core/paths.ts computes it).
__paycli_config_file() {
  if [[ -n ${PAYCLI_CONFIG_DIR-} ]]; then printf '%s\n' "$PAYCLI_CONFIG_DIR/config.json"
  elif [[ ${OSTYPE-} == darwin* ]]; then printf '%s\n' "$HOME/Library/Preferences/paycli/config.json"
  else printf '%s\n' "${XDG_CONFIG_HOME:-$HOME/.config}/paycli/config.json"; fi
}

# The profile names in the config file, one a line.
__paycli_profiles() {
  local f
  f=$(__paycli_config_file)
  [[ -r $f ]] || return 0
  __paycli_profile_names "$f" 2>/dev/null
}

_paycli() {
  # Re-join "--flag=value", which bash splits at "=" (COMP_WORDBREAKS).
  local -a words=()
  local cword=0 i w n joined=0
  for ((i = 0; i < ${#COMP_WORDS[@]}; i++)); do
    w=${COMP_WORDS[i]}
    n=${#words[@]}
    if [[ $w == = && $n -gt 0 && ${words[n-1]} == --* && ${words[n-1]} != *=* ]]; then
      words[n-1]+='='; joined=1
    elif ((joined)) && ((i <= COMP_CWORD)) && [[ ${COMP_WORDS[i-1]} == = ]]; then
      words[n-1]+=$w; joined=0
    else
      words+=("$w"); joined=0
    fi
    ((i == COMP_CWORD)) && cword=$((${#words[@]} - 1))
  done
  local cur=${words[cword]} path='' npos=0 expect='' subs flags vflags varg
  __paycli_spec ''
  for ((i = 1; i < cword; i++)); do
    w=${words[i]}
    if [[ -n $expect ]]; then expect=''; continue; fi
    case $w in
      -*)
        if [[ $w != *=* && " $vflags " == *" $w "* ]]; then expect=$w; fi ;;
      *)
        if ((npos == 0)) && [[ " $subs " == *" $w "* ]]; then
          path=${path:+$path }$w
          __paycli_spec "$path"
        else
          npos=$((npos + 1))
        fi ;;
    esac
  done
  COMPREPLY=()
  if [[ -n $expect ]]; then
    __paycli_values "$path" "$expect" "$cur"
  elif [[ $cur == --*=* ]]; then
    __paycli_values "$path" "${cur%%=*}" "${cur#*=}"
    if [[ ${COMP_WORDS[COMP_CWORD]} == --*=* ]]; then COMPREPLY=("${COMPREPLY[@]/#/${cur%%=*}=}"); fi
  elif [[ $cur == -* ]]; then
    __paycli_words "$flags" "$cur"
  elif ((npos == 0)) && [[ -n $subs ]]; then
    __paycli_words "$subs" "$cur"
  else
    if [[ -n $varg ]] && ((npos > varg)); then npos=$varg; fi
    __paycli_values "$path" "#$npos" "$cur"
  fi
  return 0
}

complete -F _paycli paycli
