/**
 * The English catalog: every text a person reads, by key. It defines the keys: the Portuguese
 * catalog (./pt-BR.ts) is typed {@link Catalog}, so a key missing there (or one added here only)
 * fails the build (`npm run build` type-checks this folder first). A text with values is a
 * function of typed parameters. Flags, command names, JSON keys, error codes and exit codes are
 * never in a catalog: they are the scripting interface and do not change with the language
 * (docs/portugues.md).
 *
 * Longer than 500 lines: one catalog holds every text of the program, by key, so that a missing
 * translation is a type error in one place; split by area it would need a catalog type per area.
 */
export const en = {
  // ── language itself ──
  'lang.invalid': (choices: string) => `use one of ${choices}`,
  'lang.flag': 'language of messages and help: pt-BR or en (default: config key lang, then LC_ALL/LC_MESSAGES/LANG)',
  // ── local time, encodings, spreadsheets (src/core/local-time.ts, src/core/text-encoding.ts, src/cli/csv-dialect.ts) ──
  'time.column': 'TIME',
  'time.boundInvalid': (flag: string, text: string) => `${flag}: use a duration such as 30m, 24h, 7d or 2w, a day such as 2026-11-01, 01/11/2026, today or yesterday (hoje, ontem), or a time such as 2026-11-01T12:00:00-03:00; got "${text}"`,
  'encoding.invalid': (text: string) => `--encoding: use utf-8, windows-1252 or latin1, got "${text}"; nothing was sent`,
  'encoding.notUtf8': (flag: string, name: string, line: number, column: number, byte: string) => `${flag}: ${name} is not valid UTF-8: line ${line}, character ${column} (byte ${byte}); nothing was sent`,
  'encoding.hintWindows1252': (line: number, text: string) => `it reads as Windows-1252 (what Excel on Windows saves as "CSV"): line ${line} would be "${text}"; pass --encoding windows-1252, or save the file as "CSV UTF-8"`,
  'encoding.hintOther': 'save the file as UTF-8, or pass --encoding windows-1252 or latin1 if it was written in one of those',
  'encoding.bom': (flag: string, name: string, encoding: string) => `${flag}: ${name} starts with a UTF-8 byte order mark: it is UTF-8, not ${encoding}; nothing was sent`,
  'encoding.bomHint': 'leave out --encoding',
  'encoding.replacement': (code: string, at: number) => `is not valid UTF-8: it contains ${code}, the replacement character (at character ${at}), where bytes in another encoding (such as Windows-1252) were read as UTF-8; the original letters are lost`,
  'encoding.lostText': (code: string, at: number) => `contains ${code} (at character ${at}), a character that stands for lost text`,
  'encoding.argv': (what: string, at: number) => `${what} is not valid UTF-8 (character ${at} is U+FFFD, the replacement character, where the command line had bytes in another encoding); nothing was done`,
  'encoding.argvHint': 'set the terminal (or the script) to UTF-8; the original bytes cannot be recovered from the command line. A file in Windows-1252 or Latin-1 can be read with --input or --batch and --encoding',
  'encoding.flag': 'how the --input or --batch file is written: utf-8 (the default; other bytes are refused), windows-1252 (Excel\'s "CSV" on Windows) or latin1',
  'csv.dialectInvalid': (text: string) => `--csv-dialect: use br or intl, got "${text}"`,
  'csv.dialectNeedsCsv': '--csv-dialect is for --format csv',
  'csv.dialectFlagHistory': 'with --format csv: br (; separated, Portuguese column names, 1.234,56, local times; the default when Portuguese is on) or intl (, separated, English names)',
  'csv.dialectFlagBatch': 'with --batch: a .csv results file in br (; separated, Portuguese column names, amounts as 1.234,56; the default when Portuguese is on) or intl (separated like the input, English names, cents)',
  'batch.valorNeedsCentavos': (raw: string) => `"${raw}" must be reais with the decimal comma and two centavos, e.g. 15,00 or 1.234,56 (a column of cents is named valor-centavos)`,
  'history.sinceFlag': 'only payments recorded since: a duration back (30m, 24h, 7d, 2w), a local day (2026-11-01, 01/11/2026, today, yesterday, hoje, ontem) or a time (2026-11-01T12:00:00-03:00)',
  'history.untilFlag': 'only payments recorded before (a day includes that whole local day)',
  // ── message prefixes (src/core/logger.ts) ──
  'log.error': 'error:',
  'log.warning': 'warning:',
  'log.hint': 'hint:',
  // ── help layout (src/cli/help.ts): commander's headings and notes ──
  'help.title.usage': 'Usage:',
  'help.title.options': 'Options:',
  'help.title.globalOptions': 'Global Options:',
  'help.title.commands': 'Commands:',
  'help.title.arguments': 'Arguments:',
  'help.title.examples': 'Examples:',
  'help.choices': 'choices:',
  'help.default': 'default:',
  'help.after.error': '(run with --help for usage)',
  'help.option.help': 'show help',
  'help.option.helpCommand': 'display help for command',
  // ── commander's own errors, as paycli shows them ──
  'cmdr.unknownOption': (flag: string) => `unknown option '${flag}'`,
  'cmdr.didYouMean': (name: string) => `(Did you mean ${name}?)`,
  'cmdr.argumentMissing': (flags: string) => `option '${flags}' argument missing`,
  'cmdr.invalidArgument': (flags: string, value: string) => `option '${flags}' argument '${value}' is invalid.`,
  'cmdr.missingArgument': (name: string) => `missing required argument '${name}'`,
  'cmdr.tooManyArguments': (where: string, expected: number, got: number) => `too many arguments${where}. Expected ${expected} argument${expected === 1 ? '' : 's'} but got ${got}.`,
  'cmdr.unknownCommand': (word: string, where: string) => `unknown command '${word}'${where}`,
  'cmdr.for': (path: string) => ` for '${path}'`,
  'cmdr.knownCommands': (where: string, names: string) => `(known commands${where}: ${names})`,
  // ── paycli --help (src/cli/program.ts) ──
  'root.description': 'PIX cash-ins (BR Code / QR code) and cash-outs (payouts to a PIX key) against a payment gateway.\nWith no gateway configured, commands run against a built-in sandbox where no money moves.',
  'root.version': 'print the version (with --verbose: also Node, the SQLite driver, and where the ledger, config and cache are)',
  'root.json': 'print the result as one JSON document on stdout (errors as JSON on stderr)',
  'root.profile': 'config profile to use (env PAYCLI_PROFILE; default "default")',
  'root.baseUrl': 'gateway base URL, or "sandbox" (env PAYCLI_BASE_URL)',
  'root.timeout': 'request timeout in milliseconds (default 30000)',
  'root.verbose': 'trace the request and response on stderr (credential redacted)',
  'root.noColor': 'no colour (also NO_COLOR=1)',
  'root.noInput': 'never prompt; fail on missing fields (also PAYCLI_NO_INPUT=1)',
  'root.allowInsecureHttp': 'allow a plain http:// base URL to a non-loopback host',
  'root.exitCodes': 'Exit codes:',
  'root.environment': 'Environment:',
  'root.example.cashoutComment': '# in a terminal: asks for the key, hidden',
  'root.environmentText': '  PAYCLI_PROFILE, PAYCLI_BASE_URL, PAYCLI_API_KEY override the profile; flags override both.\n  PAYCLI_NO_INPUT=1, NO_COLOR=1, HTTPS_PROXY/HTTP_PROXY/NO_PROXY, NODE_EXTRA_CA_CERTS.\n  PAYCLI_POSTBACK_SECRET signs (sandbox) and checks (listen) postbacks.\n  PAYCLI_CONFIG_DIR, PAYCLI_DATA_DIR, PAYCLI_CACHE_DIR move the config file, the data folder and the\n  code cache (NODE_DISABLE_COMPILE_CACHE=1 turns the cache off).\n  LC_ALL, LC_MESSAGES, LANG: a value starting with pt gives Portuguese (unless --lang or config key lang).',
  // ── exit codes (src/core/errors.ts EXIT_CODE_SUMMARY) ──
  'exit.0': 'success (a batch: every row ok, or already ok)',
  'exit.1': 'the gateway refused the request (4xx other than 401/403); its message is shown (a batch: some rows refused)',
  'exit.2': 'usage or validation error, nothing sent (also: cash-out not confirmed, duplicate cash-out, ledger unusable or busy; a batch file with bad rows)',
  'exit.3': 'authentication failed (401/403) or no API key configured',
  'exit.4': 'network failure or timeout (outcome unknown if the request may have been sent; a batch: some rows unknown)',
  'exit.5': 'the gateway failed or answered outside the interface (5xx, not JSON, wrong shape; a batch: some rows unknown)',
  'exit.6': 'created, but needs attention (wrong amounts or BR Code in the answer; result not written; a batch: some rows need a person)',
  'exit.70': 'internal error (a bug in paycli)',
  'exit.130': 'interrupted (Ctrl-C, or SIGTERM during a request; a batch: rows in flight recorded, run it again to resume)',
  // ── paycli help (src/cli/help.ts) ──
  'help.cmd.description': 'show the help of a command, e.g. paycli help config set; `paycli help examples` prints where the example files are',
  'help.cmd.argument': 'a command and its subcommands, or examples',
  'help.cmd.after': (files: string) => `paycli help examples prints the folder of the example files that ship with paycli (${files}),\nwhich the examples of every --help use; copy a file before changing it.`,
  'help.usage.options': 'options',
  'help.usage.command': 'command',
  'config.lang.invalid': (value: string) => `lang must be pt-BR or en, got "${value}"`,
  // ── amounts (src/pix/money.ts) ──
  'money.empty': 'is empty; write an amount in reais, e.g. 15,50',
  'money.negative': (text: string) => `"${text}" is negative; write a positive amount in reais, e.g. 15,50`,
  'money.ambiguous': (text: string, reais: string, whole: string, alt: string) => `"${text}" is ambiguous (thousands, or 3 decimals?); for ${reais} write ${whole} or ${alt},00`,
  'money.decimals': (text: string) => `"${text}" has more than 2 decimals; reais have 2 (cents), e.g. 15,50`,
  'money.notAmount': (text: string) => `"${text}" is not an amount in reais with at most 2 decimals; e.g. 15, 15,50 or 1.234,56`,
  'money.zero': 'must be more than R$ 0,00, e.g. 15,50',
  'money.tooMuch': (reais: string, max: string) => `${reais} is more than the most paycli sends, ${max}; e.g. 15,50`,
  // ── CPF and CNPJ (src/pix/documents.ts) ──
  'doc.what.cpf': 'CPF',
  'doc.what.cnpj': 'CNPJ',
  'doc.what.cpf-or-cnpj': 'CPF or CNPJ',
  'doc.invalid': (what: string, detail: string) => `is not a valid ${what}: ${detail}`,
  'doc.sizes.cpf': 'a CPF has 11 digits',
  'doc.sizes.cnpj': 'a CNPJ has 14 characters',
  'doc.sizes.cpf-or-cnpj': 'a CPF has 11 digits, a CNPJ 14 characters',
  'doc.empty': (sizes: string) => `it is empty; ${sizes}`,
  'doc.badChar': (ch: string) => `it contains "${ch}"; only digits, letters (CNPJ) and the mask characters . / - are allowed`,
  'doc.cpfDigitsOnly': 'a CPF has digits only',
  'doc.cpfSame': 'all 11 digits of the CPF are the same',
  'doc.cpfCheck': 'the CPF check digits do not match (a character is mistyped or two are swapped)',
  'doc.cnpjCheckDigits': 'the last 2 characters of a CNPJ (its check digits) must be digits',
  'doc.cnpjSame': 'all 14 digits of the CNPJ are the same',
  'doc.cnpjCheck': 'the CNPJ check digits do not match (a character is mistyped or two are swapped)',
  'doc.length': (n: number, sizes: string) => `it has ${n} character${n === 1 ? '' : 's'} without the mask; ${sizes}`,
  // ── PIX keys (src/pix/pixkey.ts, src/pix/pix-key-types.ts) ──
  'pixkey.noun.cpf': 'a CPF key',
  'pixkey.noun.cnpj': 'a CNPJ key',
  'pixkey.noun.email': 'an e-mail key',
  'pixkey.noun.phone': 'a phone key',
  'pixkey.noun.random': 'a random key',
  'pixkey.description.cpf': 'CPF (11 digits)',
  'pixkey.description.cnpj': 'CNPJ (14 characters, letters allowed)',
  'pixkey.description.email': 'e-mail address',
  'pixkey.description.phone': 'mobile phone (+55, DDD, number)',
  'pixkey.description.random': 'random key (EVP, a UUID)',
  'pixkey.typeHelp': (names: string) => `${names} (also the interface's TELEFONE and RANDOM_KEY, the DICT's EVP and PHONE, or 0-4)`,
  'pixkey.useOneOf': (list: string) => `use one of ${list}`,
  'pixkey.notCpf': 'is not a CPF: a CPF key has 11 digits (dots and dash allowed)',
  'pixkey.notCpfShort': 'is not a CPF',
  'pixkey.notCnpj': 'is not a CNPJ: a CNPJ key has 14 characters (dots, slash and dash allowed)',
  'pixkey.notCnpjShort': 'is not a CNPJ',
  'pixkey.notEmail': 'is not an e-mail key',
  'pixkey.landline': 'is a landline number; a PIX phone key is a mobile number: +55, DDD and 9 digits starting with 9',
  'pixkey.notRandom': 'is not a random key: a UUID of 32 hexadecimal digits in groups 8-4-4-4-12',
  'pixkey.looksLike': (noun: string, name: string) => `; it looks like ${noun}: use --pix-key-type ${name}`,
  'pixkey.example': (noun: string, example: string) => `; ${noun} looks like ${example}`,
  // ── contact data (src/pix/contact.ts) ──
  'contact.invisible': 'an invisible character',
  'contact.aName': (name: string) => `a ${name}`,
  'contact.oneLine': 'must be one line without control characters (tabs, line breaks)',
  'contact.onlyVisible': (what: string) => `contains ${what}; only visible characters and spaces are allowed`,
  'contact.empty': 'is empty',
  'contact.emailChar': (what: string, allowed: string) => `contains ${what}; an e-mail address is written in ASCII letters, digits and ${allowed}`,
  'contact.emailLong': (n: number, max: number) => `has ${n} characters, more than the ${max} allowed for an e-mail address`,
  'contact.emailKeyChar': (what: string, allowed: string) => `contains ${what}; an e-mail key has only ASCII letters, digits and ${allowed} (DICT)`,
  'contact.emailKeyLong': (n: number, max: number) => `has ${n} characters; an e-mail key has at most ${max}`,
  'contact.emailKeyLocal': (ch: string, allowed: string) => `contains "${ch}", which a DICT e-mail key may not have before the @ (allowed: letters, digits and ${allowed})`,
  'contact.notEmail': 'is not an e-mail address (name@domain.tld)',
  'contact.phoneChar': (what: string) => `contains ${what}; only digits, +, spaces and ( ) - are allowed`,
  'contact.phoneDigits': (n: number, after: string) => `has ${n} digit${n === 1 ? '' : 's'}${after}; it needs the DDD and the number: 10 digits (landline) or 11 (mobile)`,
  'contact.phoneDdd': (ddd: string, list: string) => `has DDD ${ddd}, which does not exist (Anatel's area codes: ${list})`,
  'contact.phoneAdd9': (fixed: string) => `is not a valid number: 10 digits make a fixed line, whose number after the DDD starts with 2-5; a mobile has 9 digits after the DDD, starting with 9 (add the 9: ${fixed}?)`,
  'contact.phoneFixed': 'is not a valid number: 10 digits make a fixed line, whose number after the DDD starts with 2-5 (Anatel)',
  'contact.phoneMobile': 'is not a valid mobile number: with 11 digits, the number after the DDD must start with 9',
  'contact.afterCountry': ' after the country code',
  'contact.after0055': ' after 0055',
  'contact.afterTrunk': ' after the trunk prefix 0',
  // ── request fields (src/gateway/schemas.ts, src/gateway/fields.ts) ──
  'schema.required': 'is required',
  'schema.mustBe': (what: string) => `must be ${what}`,
  'schema.eg': (example: string) => `e.g. ${example}`,
  'schema.what.cents': 'an integer number of cents, e.g. 1000 for R$ 10,00',
  'schema.centsFraction': (v: number) => `must be an integer number of cents, not ${v}; e.g. 1050 for R$ 10,50`,
  'schema.centsMin': (v: number) => `must be at least 1 cent, not ${v}; e.g. 1000 for R$ 10,00`,
  'schema.centsMax': (max: number, v: number) => `must be at most ${max} cents (R$ 100.000.000,00), not ${v}; e.g. 1000 for R$ 10,00`,
  'schema.what.text': (example: string) => `text, e.g. "${example}"`,
  'schema.notEmpty': (example: string) => `must not be empty, e.g. "${example}"`,
  'schema.tooLong': (n: number, max: number, example: string) => `has ${n} characters, more than the ${max} allowed; e.g. "${example}"`,
  'schema.what.email': 'an e-mail address, e.g. fulano@example.com',
  'schema.what.phone': 'a phone number, e.g. (11) 98765-4321',
  'schema.phoneExample': 'e.g. (11) 98765-4321 or +55 11 3456-7890',
  'schema.what.document': 'a CPF or CNPJ, e.g. 123.456.789-09',
  'schema.documentExample': 'e.g. 123.456.789-09 (CPF) or 12.ABC.345/01DE-35 (CNPJ)',
  'schema.what.url': 'a URL, e.g. https://example.com/pix/postback',
  'schema.urlLong': (max: number) => `is longer than ${max} characters; e.g. https://example.com/pix/postback`,
  'schema.urlNotHttp': 'is not an absolute http(s) URL, e.g. https://example.com/pix/postback',
  'schema.splitTwice': (id: string) => `${id} already has a split; give each client one split with the whole amount, e.g. ${id}:300`,
  'schema.splitSum': (sum: number, sumReais: string, value: number, valueReais: string) => `add up to ${sum} cents (${sumReais}), more than the value of ${value} cents (${valueReais}); the splits must add up to at most the value`,
  'schema.pixKeyType': (list: string, got: string) => `must be one of ${list}, not ${got}; e.g. email`,
  'schema.what.pixKey': 'a PIX key, e.g. fulano@example.com',
  'schema.pixKeyEmpty': 'must not be empty, e.g. fulano@example.com or 123.456.789-09',
  'fields.inInput': (path: string, input: string) => `${path || 'the JSON document'} (in --input ${input})`,
  'fields.inInputShort': (path: string) => `${path} (in --input)`,
  'fields.request': 'request',
  'fields.forReais': ' (for reais, use --amount 10,50)',
  'fields.splits': (flag: string, msg: string) => `${flag}: the splits ${msg}`,
  'fields.splitN': (n: number) => `split #${n}`,
  'fields.splitNoAmount': (flag: string, n: string, example: string) => `${flag}: ${n} has no amount in cents; write clientId:cents, e.g. ${flag} ${example}`,
  'fields.splitNoClient': (flag: string, n: string, example: string) => `${flag}: ${n} has no client id; write clientId:cents, e.g. ${flag} ${example}`,
  'fields.splitAmount': 'amount',
  'fields.splitClient': 'client id',
  'fields.missingFields': (n: number, list: string) => `missing required field${n > 1 ? 's' : ''} (in --input or as flags): ${list}`,
  'fields.missingFlags': (n: number, list: string) => `missing required flag${n > 1 ? 's' : ''}: ${list}`,
  'fields.oneProblem': (line: string) => `${line}; nothing was sent`,
  'fields.problems': (n: number, lines: string) => `the request has ${n} problems; nothing was sent:\n  ${lines}`,
  'fields.missingHint': 'pass the flags, use --input <file>, or run in a terminal to be prompted',
  'schema.what.uuid': 'a UUID, e.g. 123e4567-e12b-12d1-a456-426655440000',
  'schema.what.splits': 'a list of {clientId, value} objects, e.g. [{"clientId": "123e4567-e12b-12d1-a456-426655440000", "value": 300}]',
  'schema.what.person': 'an object with name, email and phone, e.g. {"name": "Fulano de Tal", "email": "fulano@example.com", "phone": "11987654321"}',
  // ── the gateway's answers and the network (src/gateway/client.ts) ──
  'net.lookupFailed': (what: string) => `${what}: the lookup failed (a lookup changes nothing at the gateway)`,
  'net.afterSent': (what: string, advice: string) => `${what} after the request was sent: the outcome is unknown; ${advice}`,
  'net.beforeSent': (what: string) => `${what} before the request was sent: nothing reached the gateway`,
  'net.interruptedLookup': 'interrupted during a lookup (a lookup changes nothing at the gateway)',
  'net.interruptedAfter': (advice: string) => `interrupted after the request was sent: the outcome is unknown; ${advice}`,
  'net.interruptedBefore': 'interrupted before the request was sent: nothing reached the gateway',
  'net.noAnswer': (ms: number) => `no answer within ${ms} ms`,
  'net.cannotConnect': (host: string, code: string) => `could not connect to ${host} (${code}): nothing was sent`,
  'net.cannotConnectHint': 'check --base-url / `paycli config get base-url` and your network',
  'net.connectionFailed': (why: string) => `the connection failed (${why})`,
  'net.unknownError': 'unknown error',
  'net.proxyAuth': 'the proxy asked for authentication (HTTP 407 Proxy Authentication Required): nothing was sent',
  'net.proxyAuthHint': 'put the proxy credentials in the proxy variable (HTTPS_PROXY=http://user:password@proxy:port), or set NO_PROXY for this gateway',
  'net.proxyRefused': (status: number) => `the proxy refused to connect to the gateway (HTTP ${status}): nothing was sent`,
  'net.proxyRefusedHint': 'check HTTPS_PROXY / HTTP_PROXY / NO_PROXY',
  'gw.tooBig': (max: number, lookup: boolean) => `the gateway's answer is larger than ${max} bytes; refused${lookup ? '' : ' (the request was received: check the gateway for its outcome)'}`,
  'gw.unknownTail': (advice: string) => `; the outcome is unknown: ${advice}`,
  'gw.nowhere': 'nowhere',
  'gw.redirectLookup': (status: number, location: string) => `the gateway answered HTTP ${status}, a redirect to ${location}; paycli does not follow redirects (the credential would go along)`,
  'gw.redirectPost': (status: number, location: string) => `the gateway answered HTTP ${status}, a redirect to ${location}; paycli never follows a redirect on a POST (it would re-send the payment)`,
  'gw.redirectLookupHint': 'check the base URL and the lookup paths (`paycli config list`)',
  'gw.redirectPostHint': 'check the base URL (https://, trailing path)',
  'gw.unauthorized': (status: number, message: string) => `the gateway refused the credential (HTTP ${status}${message ? `: ${message}` : ''})`,
  'gw.unauthorizedHint': (command: string) => `log in with \`${command}\` (or set PAYCLI_API_KEY)`,
  'gw.noMessage': (status: number) => `HTTP ${status} without an error message`,
  'gw.failed': (status: number, what: string, tail: string) => `the gateway failed (HTTP ${status}${what})${tail}`,
  'gw.with': (what: string) => ` with ${what}`,
  'gw.notJson': (status: number, what: string, tail: string) => `the gateway answered HTTP ${status} with ${what}, not JSON${tail}`,
  'gw.shape': (lookup: boolean, issues: string, tail: string) => `the gateway's answer does not match the ${lookup ? 'documented lookup' : 'interface'}: ${issues}${tail}`,
  'gw.emptyBody': 'an empty body',
  'gw.html': 'an HTML page',
  'gw.bodyOfType': (type: string) => `a body of type ${type}`,
  'gw.notJsonBody': 'a body that is not JSON',
  'advice.cashin': 'look the cash-in up at the gateway before creating another',
  'advice.cashout': 'check the cash-out at the gateway before sending it again',
  // ── common endings ──
  'common.nothingSent': 'nothing was sent',
  'common.nothingChanged': 'nothing was changed',
  'common.nothingShown': 'nothing was shown',
  'common.nothingDone': 'nothing was done',
  // ── settings and profiles (src/config/settings.ts) ──
  'settings.notJson': (file: string) => `the config file ${file} is not valid JSON; fix or delete it`,
  'settings.shape': (file: string, path: string, want: string, kind: string) => `the config file ${file}: ${path} must be ${want}, not ${kind}; fix it (or set it again with paycli config set)`,
  'settings.configKey': (key: string, profile: string) => `config key ${key} (profile ${profile})`,
  'settings.oneOf': (what: string, choices: string, value: string) => `${what} must be one of ${choices}, got "${value}"`,
  'settings.unknownProfile': (name: string, source: string, near: string, action: string) => `unknown profile "${name}" (${source})${near ? `: did you mean ${near}?` : ''}; ${action}`,
  'settings.configuredProfiles': (names: string) => `configured profiles: ${names} (paycli config profiles)`,
  'settings.noProfiles': 'no profile is configured: create one with `paycli config set base-url <url> --profile <name> --create`',
  'settings.noBaseUrl': (profile: string, op: 'cashin' | 'cashout' | 'lookup') => `profile "${profile}" has no base URL${op === 'lookup' ? '' : ` for ${op === 'cashin' ? 'cash-ins' : 'cash-outs'}`}; nothing was sent`,
  'settings.noBaseUrlHint': (command: string) => `set one with \`${command}\`, choose another profile (paycli config profiles), or pass --base-url sandbox`,
  'settings.baseUrlNotAbsolute': (url: string) => `base URL "${url}" is not an absolute URL; example: https://api.gateway.example`,
  'settings.baseUrlHttps': (url: string) => `base URL "${url}" must start with https://`,
  'settings.baseUrlQuery': (url: string, query: boolean) => `base URL "${url}" has a ${query ? 'query' : 'fragment'}: a base URL is a scheme, a host and optionally a path`,
  'settings.baseUrlQueryHint': 'example: https://api.gateway.example/api/v2',
  'settings.baseUrlHttp': (url: string) => `base URL "${url}" uses plain http: the API key would travel in clear`,
  'settings.baseUrlHttpHint': 'use https://, or pass --allow-insecure-http if you really mean it',
  'settings.keychainUnreadable': (profile: string, keychain: string, why: string) => `the API key of profile "${profile}" is in ${keychain}, which cannot be read (${why}); nothing was sent`,
  'settings.keychainHint': (command: string) => `unlock the keychain, set PAYCLI_API_KEY, or run \`${command}\` again`,
  'settings.noKeyLoopback': (profile: string, host: string) => `no API key for profile "${profile}": sending to ${host} (loopback) without a credential`,
  'settings.noKey': (profile: string) => `no API key for profile "${profile}": nothing was sent`,
  'settings.noKeyHint': (command: string) => `run \`${command}\` or set PAYCLI_API_KEY`,
  // ── errors every command may end with (src/core/errors.ts, src/cli/action.ts) ──
  'error.needsAttention': 'created, but needs attention',
  'error.interrupted': 'interrupted',
  'error.interruptedNothingSent': 'interrupted: nothing was sent',
  'error.internal': (message: string) => `internal error: ${message} (a bug in paycli; run with --verbose for details)`,
  'error.stdoutLost': (created: string, why: string) => `the gateway created ${created}, but its result could not be written to stdout (${why}); see \`paycli history\``,
  'error.stdoutFailed': (why: string) => `the result could not be written to stdout (${why})`,
  // ── one payment (src/payment/request.ts, src/payment/pipeline.ts, src/payment/input.ts) ──
  'pay.noun': (kind: 'cashin' | 'cashout') => (kind === 'cashin' ? 'cash-in' : 'cash-out'),
  'pay.batchOnly': (flag: string) => `${flag} is for batch runs (with --batch <file>); nothing was sent`,
  'pay.sandboxNotice': 'sandbox: this runs against the built-in sandbox; no money moves. Configure a gateway with `paycli config set base-url <url>` and `paycli auth login`.',
  'pay.notRegularFile': 'is not a regular file',
  'pay.cannotWrite': (code: string) => `cannot be written (${code})`,
  'pay.cannotCreate': (why: string) => `cannot be created (${why})`,
  'pay.noSuchFolder': 'no such folder',
  'pay.fileProblem': (flag: string, file: string, problem: string) => `${flag}: ${file} ${problem}; nothing was sent`,
  'pay.dryRunNoKey': (profile: string) => `no API key for profile "${profile}": a real run would stop here (exit 3)`,
  'pay.dryRun': (sandbox: boolean) => `dry run: nothing was sent${sandbox ? ' (the request would go to the built-in sandbox)' : ''}`,
  'pay.reusedOrder': (ref: string, kind: 'cashin' | 'cashout') => `sent with order reference ${ref}, the one of an identical earlier ${kind === 'cashin' ? 'cash-in' : 'cash-out'} that the gateway never got: the gateway sees one order, however often it is tried`,
  'pay.needsYes': (kind: 'cashin' | 'cashout') => `a ${kind === 'cashin' ? 'cash-in' : 'cash-out'} moves money: pass --yes to confirm it when not running interactively; nothing was sent`,
  'pay.needsYesHint': 'add --yes (or check the request first with --dry-run)',
  'pay.notConfirmed': (kind: 'cashin' | 'cashout') => `${kind === 'cashin' ? 'cash-in' : 'cash-out'} not confirmed; nothing was sent`,
  'pay.allowDuplicate': (kind: 'cashin' | 'cashout', id: number, reais: string, time: string, outcome: string, entry: number) => `--allow-duplicate: sending although an identical ${kind === 'cashin' ? 'cash-in' : 'cash-out'} (entry ${id}, ${reais}, ${time}, outcome ${outcome}) is in the ledger; recorded as entry ${entry}`,
  'pay.waiting': (kind: 'cashin' | 'cashout', seconds: number) => `the ${kind === 'cashin' ? 'cash-in' : 'cash-out'} was sent: waiting for the gateway's answer (up to ${seconds} s), the only way to learn whether it was created. Ctrl-C again to stop waiting; its outcome then stays unknown and \`paycli reconcile\` settles it later`,
  'pay.askingFirst': (kind: 'cashin' | 'cashout', id: number, order: string) => `an identical ${kind === 'cashin' ? 'cash-in' : 'cash-out'} (entry ${id}) has an unknown outcome: asking the gateway for order ${order} first`,
  'pay.none': '(none)',
  'pay.askedNow': (message: string, why: string) => `${message}. Asked now: ${why}; nothing was sent`,
  'pay.askAfter': (when: string) => `run the same command, or \`paycli reconcile\`, after ${when}`,
  'pay.notSentAfterDeadline': (message: string, ref: string, kind: 'cashin' | 'cashout', entry: number) => `${message}; asked by order reference ${ref} after its deadline and settle-after, the gateway has no such ${kind === 'cashin' ? 'cash-in' : 'cash-out'}: recorded as not sent (entry ${entry})`,
  'pay.sendAgainHint': 'to send it again, run the same command: it is sent under the same order reference',
  'pay.unknownRecorded': (entry: number, kind: 'cashin' | 'cashout', when: string) => `its outcome is unknown and recorded so (entry ${entry}; an identical ${kind === 'cashin' ? 'cash-in' : 'cash-out'} is refused until it is settled)${when ? `; the gateway can be asked from ${when}: \`paycli reconcile\`` : ''}`,
  'pay.reconcileHint': (when: string, ref: string) => `run \`paycli reconcile\`${when ? ` after ${when}` : ''}: it asks the gateway by order reference ${ref} and records what it finds`,
  'input.cannotRead': (name: string, why: string) => `--input: cannot read ${name} (${why}); nothing was sent`,
  'input.tooLarge': (name: string, max: number) => `--input: ${name} is larger than ${max} bytes (1 MiB), the limit of a request document; nothing was sent`,
  'input.notJson': (name: string, why: string) => `--input: ${name} is not valid JSON: ${why}; nothing was sent`,
  'input.notObject': (name: string) => `--input: the JSON must be an object with the interface field names, e.g. {"value": 1000, ...} (${name} is not); nothing was sent`,
  'input.ignoring': (n: number, list: string) => `--input: ignoring field${n > 1 ? 's' : ''} the interface does not define: ${list}`,
  'input.valueAndAmount': 'give either --value (cents) or --amount (reais), not both; nothing was sent',
  'input.amount': (problem: string) => `--amount: ${problem}; nothing was sent`,
  // ── the ledger's guards (src/ledger/rules.ts) ──
  'rules.orderOk': (ref: string, id: number, tx: string, reais: string, time: string, note: string) => `order reference ${ref} was already created at this gateway (entry ${id}, transaction ${tx}, ${reais}, ${time}); refused so that it is not paid twice${note}`,
  'rules.orderOkHint': 'a new payment needs a new order reference',
  'rules.orderUnknown': (ref: string, id: number, reais: string, time: string, note: string) => `order reference ${ref} is already in the ledger with an outcome not known yet (entry ${id}, ${reais}, ${time}): it may be in flight; refused until it is settled${note}`,
  'rules.orderUnknownHint': '`paycli reconcile` settles it by asking the gateway (once its deadline has passed and the run that sent it has ended)',
  'rules.aheadOfClock': (min: number) => `${min} min ahead of this machine's clock`,
  'rules.ago': (n: number, unit: 's' | 'min' | 'h' | 'days') => `${n} ${unit} ago`,
  'rules.window': (min: number) => `same gateway, PIX key and amount within ${min} min, config key duplicate-window`,
  'rules.windowOff': 'same gateway, PIX key and amount; config key duplicate-window is 0, so only an unknown outcome blocks',
  'rules.dupWhat': (reais: string, key: string, sandbox: boolean, time: string, ago: string, id: number) => `${reais} to PIX key ${key}${sandbox ? ' (sandbox)' : ''}, at ${time} (${ago}), entry ${id}`,
  'rules.dupOk': (what: string, tx: string) => `an identical cash-out was already sent: ${what}, transaction ${tx}, outcome ok; refused so that it is not paid twice; nothing was sent`,
  'rules.dupOkHint': (window: string) => `if you really mean to pay it again, add --allow-duplicate (identical: ${window}; see \`paycli history\`)`,
  'rules.unknownCompleted': 'its outcome is unknown (no valid answer came back: timeout, reset, gateway error or Ctrl-C after sending)',
  'rules.unknownKilled': 'its outcome is unknown (paycli was killed before the answer, or it is still being sent)',
  'rules.dupUnknown': (what: string, why: string) => `an identical cash-out may already have been paid: ${what}; ${why}; refused until that outcome is resolved, so that it is not paid twice; nothing was sent`,
  'rules.dupUnknownHint': (id: number) => `check that cash-out at the gateway first, then record what happened: \`paycli history resolve ${id} --outcome ok\` (it was paid) or \`--outcome not_sent\` (it was not); or add --allow-duplicate to send it anyway`,
  // ── prompts (src/payment/prompts.ts): field labels by interface path ──
  'field.value': 'Amount in cents',
  'field.payerName': "Payer's name",
  'field.payerDocument': "Payer's CPF or CNPJ",
  'field.payerEmail': "Payer's e-mail",
  'field.payerPhone': "Payer's phone with DDD",
  'field.productName': 'Product name',
  'field.productDescription': 'Product description',
  'field.postbackUrl': 'Postback URL',
  'field.splits': 'Splits',
  'field.orderId': 'Order reference',
  'field.pixKeyType': 'PIX key type',
  'field.pixKey': 'PIX key',
  'field.cpfCnpj': 'CPF or CNPJ of the key owner',
  'field.person.name': "Recipient's name",
  'field.person.email': "Recipient's e-mail",
  'field.person.phone': "Recipient's phone with DDD",
  'prompt.amount': 'Amount in reais (e.g. 15,50)',
  'prompt.amountSubject': 'Amount',
  'prompt.pixKey': (noun: string, example: string) => `PIX key, ${noun} (e.g. ${example})`,
  'prompt.optional': (label: string) => `${label} (optional, Enter to skip)`,
  'prompt.example': (label: string, example: string) => `${label} (e.g. ${example})`,
  'prompt.centsShown': (reais: string, cents: number) => `${reais} (${cents} cents)`,
  'prompt.splitsAgain': '  Enter the splits again.',
  'prompt.anotherSplit': 'Add another split?',
  'prompt.firstSplit': 'Add a split (part of the amount to another client)?',
  'prompt.split': (example: string) => `Split as clientId:cents (e.g. ${example})`,
  'prompt.confirmCashOut': 'Send this cash-out?',
  'prompt.yes': 'Yes',
  'prompt.no': 'No',
  'prompt.yesNoError': (yes: string, no: string) => `You must answer with "${yes}" or "${no}"`,
  // ── the summary before a cash-out is confirmed (src/cli/run/cashout.ts) ──
  'summary.gateway': 'Gateway',
  'summary.sandbox': 'SANDBOX - no money moves',
  'summary.profile': (host: string, profile: string) => `${host} (profile ${profile})`,
  'summary.amount': 'Amount',
  'summary.pixKey': 'PIX key',
  'summary.recipient': 'Recipient',
  'summary.orderId': 'Order ID',
  // ── results (src/payment/format.ts) ──
  'result.cashinCreated': (sandbox: boolean) => `Cash-in created${sandbox ? ' (sandbox: no money moves)' : ''}`,
  'result.cashoutCreated': (sandbox: boolean) => `Cash-out created${sandbox ? ' (sandbox: no money moves)' : ''}`,
  'result.transactionId': 'Transaction ID',
  'result.externalId': 'External ID',
  'result.orderId': 'Order ID',
  'result.amount': 'Amount',
  'result.brcode': 'PIX copy-and-paste (BR Code):',
  'result.gross': 'Gross',
  'result.fee': 'Fee',
  'result.net': 'Net',
  'result.status': 'Status',
  'result.createdAt': 'Created at',
  'result.kind.cashin': 'Cash-in',
  'result.kind.transfer': 'Cash-out (transfer)',
  'result.kind.other': (object: string) => (object ? `Transaction (${object})` : 'Transaction'),
  'result.method': 'Method',
  'result.endToEnd': 'End-to-end ID',
  'result.processedAt': 'Processed at',
  'result.code': (code: string) => `code ${code}`,
  'result.document': (doc: string) => `document ${doc}`,
  'result.pixKey': (key: string) => `PIX key ${key}`,
  'result.payer': 'Payer',
  'result.payerBank': 'Payer bank',
  'result.recipient': 'Recipient',
  'result.recipientBank': 'Recipient bank',
  'result.balance': 'Balance',
  'result.retention': 'Retention',
  'result.toAnticipate': 'To anticipate',
  'result.finalBalance': 'Final balance',
  // ── help of ledger (src/cli/commands/ledger.ts) ──
  'help.ledger.description': 'the team ledger on PostgreSQL (config key ledger-url): create or update its schema, copy a local ledger into it',
  'help.ledger.after': `With ledger-url set (per profile, or PAYCLI_LEDGER_URL), every machine that pays records in one
PostgreSQL database, so the duplicate guard, order references and batch runs hold across machines.
Payment commands never change a shared database's schema: run \`paycli ledger migrate\` once per
new paycli version.

Examples:
  $ paycli config set ledger-url postgres://payments@db.internal:5432/payments
  $ paycli config set ledger-password          # in a terminal: asks for it, hidden
  $ paycli ledger migrate                      # exit 2 while db.internal does not answer; nothing is changed
  $ paycli ledger push                         # a new machine has no local ledger: nothing to push`,
  'help.ledger.migrate': 'create the team ledger schema, or bring it up to this paycli version',
  'help.ledger.migrate.after': `Applies, in order and each in its own transaction, the schema versions the team ledger lacks; two
machines migrating at once apply each once. Exit 0 when it is at this paycli's version.

Examples:
  $ paycli ledger migrate                      # exit 2 without ledger-url: it names the key to set
  $ PAYCLI_LEDGER_URL=postgres://admin@db.internal/payments paycli ledger migrate --json   # exit 2 while db.internal does not answer`,
  'help.ledger.push': "copy this machine's local ledger into the team ledger (entries it holds already are skipped)",
  'help.ledger.push.after': `Entries are matched by their uuid: pushing twice adds nothing. Refused (exit 2) while a local
paycli still sends an entry. --json prints {"entries": N, "added": M}.

Examples:
  $ paycli ledger push                         # exit 2 without ledger-url: it names the key to set
  $ PAYCLI_LEDGER_URL=postgres://admin@db.internal/payments paycli ledger push --json   # {"entries": 0, "added": 0} on a new machine`,
  // ── help of auth, balance, status, reconcile, listen (src/cli/commands/) ──
  'help.auth.description': 'log a profile in to its gateway: the API key checked, and kept in the system keychain',
  'help.auth.after': `Per profile (--profile or PAYCLI_PROFILE). login asks for the API key hidden (in a terminal; else
reads it from stdin), checks it with a request that moves no money (the balance lookup, unless the
profile has lookup off), and keeps it in the system keychain (Secret Service on Linux, Keychain on
macOS, Credential Manager on Windows), else in the config file (mode 0600), and says which.
PAYCLI_API_KEY, when set, wins over the kept key. \`paycli config set api-key\` stays the scripted
way to keep a key in the config file.`,
  'help.example.keyedGateway': '# a gateway on 127.0.0.1:4010 that wants a key',
  'help.example.asksHidden': '# in a terminal: asks for the key, hidden',
  'help.example.asksItHidden': '# in a terminal: asks for it, hidden (or reads stdin)',
  'help.auth.login': 'ask for the API key (hidden; or read it from stdin), check it against the gateway, keep it in the keychain (else the config file)',
  'help.auth.noCheck': 'keep the key without asking the gateway first (a gateway without a balance lookup)',
  'help.auth.status': 'show the profile, its gateway, where its key is kept, the key masked, and whether the gateway accepts it',
  'help.auth.statusExit3': '# exit 3: no API key for profile "default"',
  'help.auth.logout': "remove the profile's API key from the keychain and the config file",
  'help.balance.description': "show the account's balance at the gateway (beyond the interface)",
  'help.balance.after': `Sends GET /transaction/get/balance (the gateway family's documented balance, not part of the
interface; another path with config key balance-path, another host with lookup-base-url) and
shows the balance, the retention, the amount to anticipate and the final balance in reais.
--json prints the gateway's document as received (integer cents).`,
  'help.example.standaloneSandbox': '# the standalone sandbox on 127.0.0.1:4010',
  'help.balance.exit2': '# exit 2: the built-in sandbox keeps no balance between runs',
  'help.status.description': 'ask the gateway about one transaction, by its id or by your order reference (beyond the interface)',
  'help.status.argument': "the gateway's transaction id (what cashin/cashout printed)",
  'help.status.orderId': 'look it up by the order reference sent as orderId instead',
  'help.status.after': `Sends GET /transaction/get/by/id/{transactionId} or GET /transaction/get/by/orderId/{orderId}
(the gateway family's documented lookups, not part of the interface; other paths per profile with
config keys status-path and status-by-order-path, another host with lookup-base-url). Shows the
kind (cash-in or cash-out), status word, amount in reais, end-to-end id, processed time, and the
payer or the recipient. --json prints the gateway's document as received. A lookup changes
nothing, so paycli asks again (3 tries in all) after a network failure or a 502/503/504.
"Transaction not found" exits 1; other exit codes as for cashin/cashout.`,
  'help.status.exit1': '# exit 1: Transaction not found',
  'help.reconcile.description': 'settle every payment whose outcome is unknown by asking the gateway for its order reference',
  'help.reconcile.since': 'only payments recorded since then: 7d, 24h, 30m, or a date such as 2026-11-01',
  'help.reconcile.after': `For each payment in the ledger whose outcome is unknown (a timeout, a reset, a 5xx, Ctrl-C after
sending), asks the gateway by its orderId (GET /transaction/get/by/orderId/{orderId}, with the
settings of the profile that sent it): found, it is recorded as created (ok) with the gateway's
transaction id; "Transaction not found", as not sent; otherwise it stays unknown, and the table
says why. A payment without an order reference cannot be asked about: check it at the gateway.
Exit 0 when nothing is left unknown, 4 otherwise.`,
  'help.listen.description': 'receive postbacks (payment notifications), print each one, optionally forward them to your app',
  'help.listen.port': 'port to listen on (0 = any free port)',
  'help.listen.host': 'address to listen on',
  'help.listen.forwardTo': 'also POST each notification (same body and headers) to this URL',
  'help.listen.secret': 'verify x-paycli-signature with this secret; 401 when it does not match (env PAYCLI_POSTBACK_SECRET)',
  'help.listen.after': `Prints "listening on <url>" on stderr once ready, then one line per notification on stdout
(time, transaction, status, amount), or with --json the body exactly as received, one JSON
document per line. Answers 200; 400 for a body that is not a JSON object, 401 for a bad
signature (with --secret), 413 above 1 MiB. Ctrl-C or SIGTERM stops it (exit 0).`,
  // ── help of history (src/cli/commands/history.ts) ──
  'help.history.description': 'list the cash-ins and cash-outs this machine sent (newest first), from the ledger (the team ledger when ledger-url is set)',
  'help.history.since': 'only payments recorded since: a duration back (30m, 24h, 7d, 2w) or a date/time (2026-11-01, UTC)',
  'help.history.until': 'only payments recorded before (a date alone includes that whole day)',
  'help.history.kind': 'only cash-ins or cash-outs',
  'help.history.outcome': 'only payments with this outcome',
  'help.history.orderId': 'only payments sent with this order reference',
  'help.history.limit': 'show at most this many entries (or all)',
  'help.history.format': 'output: a table for people, json, or csv for spreadsheets (--json = --format json)',
  'help.history.after': `The global --profile shows only the payments sent with that profile.

Each entry: its number, time (UTC), who sent it (BY, user@host, where the width allows), kind
(* = the built-in sandbox), amount, outcome, and the PIX key (cash-out) or payer (cash-in). Outcomes: ok, refused, not_sent, or unknown (no valid
answer came back, or paycli stopped after sending: check it at the gateway, then record what
happened with \`paycli history resolve\`). An identical cash-out is refused while an earlier
one's outcome is unknown.

--format json and csv carry every field (order reference, transaction id, gateway, message,
resolution, the user, host and paycli version that sent it); csv has a header row and the amount both in cents and as 1234,56.`,
  'help.history.resolve': 'record the outcome of an entry whose outcome is unknown, after checking it at the gateway',
  'help.history.resolve.entry': 'the entry number, as `paycli history` shows it',
  'help.history.resolve.outcome': 'required: what the gateway says: ok (it was paid), not_sent (it never got it), refused',
  'help.history.resolve.note': 'why, for the record (e.g. "not in the gateway\'s dashboard")',
  'help.history.resolve.force': 'resolve it even though the paycli run that sent it is still going (running or stopped)',
  'help.history.resolve.after': `ok keeps refusing an identical cash-out within duplicate-window of when it was sent; not_sent
and refused let it be sent again. Only an entry whose outcome is unknown can be resolved.`,
  'help.history.resolve.exit2': '# exit 2 unless entry 42 is unknown',
  // ── help of sandbox (src/cli/commands/sandbox.ts) ──
  'help.sandbox.description': 'run the built-in sandbox gateway standalone (no money moves), for other programs and tests',
  'help.sandbox.port': 'port to listen on (0 = any free port)',
  'help.sandbox.host': 'address to listen on',
  'help.sandbox.apiKey': 'require this key on every request: "Authorization: Bearer <key>" (any letter case) or the raw key; 401 otherwise (subcommands: send it)',
  'help.sandbox.noAcquirer': 'answer every cash-in with 400 "no active acquirer"',
  'help.sandbox.postbackSecret': 'sign every postback (x-paycli-signature, HMAC-SHA256); a sandbox feature (env PAYCLI_POSTBACK_SECRET)',
  'help.sandbox.autoPay': 'pay every cash-in by itself this many seconds after it is created',
  'help.sandbox.webhookUrl': "also send every postback of every transaction here (the gateway's account-wide webhook)",
  'help.sandbox.strict': 'also check formats: CPF/CNPJ check digits, PIX keys against their type, phones, e-mails; orderId required on cash-outs',
  'help.sandbox.dropAfterCreate': 'create the n-th transaction (from 1; several: 2,5), then reset its connection before answering',
  'help.sandbox.retryFor': 'retry each postback until delivered for this long (ms, s, m, h, d: 90s, 30m, 24h)',
  'help.sandbox.retrySchedule': 'waits between attempts: standard (10 s doubling to 1 h) or fast (0.1 s doubling to 2 s, for tests)',
  'help.sandbox.dataDir': 'keep the postback events in this folder across restarts (default: <data folder>/sandbox)',
  'help.sandbox.keepEvents': 'most events kept; past it the oldest delivered go first',
  'help.sandbox.after': `The sandbox answers like the gateway: POST /transaction/qrcode/cashin, POST /transaction/cashout,
GET /transaction/get/by/id/<id>, GET /transaction/get/by/orderId/<orderId> and
GET /transaction/get/balance. It checks what the gateway documents (required fields and their
JSON types: 400 "Validation Failed - <field> is required"); --strict adds the format rules.
It prints "listening on <url>" on stderr once ready ({"listening": "<url>"} with --json).

Outside the interface, a running sandbox takes state changes at
POST /_sandbox/transactions/<id>/<pay|fail|cancel|refund|infraction> (what the subcommands call):
  created → paid | failed | canceled, paid → refund | infraction, infraction → refund.
Every state change, creation included, POSTs a postback to the transaction's postbackUrl (cash-in
or cash-out) and to --webhook-url. Each postback is an event (evt_<n>), kept in the data folder
across restarts, retried until a 2xx for --retry-for (waits from 10 s doubling to 1 h, with jitter;
10 s timeout an attempt, never two open at once), in order per transaction and URL; every attempt
carries x-paycli-event-id and x-paycli-delivery-attempt. \`paycli sandbox events\` lists them,
\`paycli sandbox resend\` sends them again. Signing is a sandbox feature: a real gateway may send
no signature at all.`,
  'help.sandbox.control.pay': 'mark a pending transaction paid',
  'help.sandbox.control.fail': 'mark a pending transaction failed',
  'help.sandbox.control.cancel': 'mark a pending transaction canceled',
  'help.sandbox.control.refund': 'refund a paid transaction, or one under infraction (postback status "refund")',
  'help.sandbox.control.infraction': 'open an infraction report (MED) on a paid transaction (postback status "infraction")',
  'help.sandbox.control.description': (what: string) => `${what} in a running \`paycli sandbox\`; its postbacks are sent`,
  'help.sandbox.sandboxUrl': 'address of the running sandbox',
  'help.sandbox.controlApiKey': 'the key the sandbox was started with (--api-key)',
  'help.sandbox.control.after': (name: string) => `A sandbox started with --api-key wants the same key here: paycli sandbox ${name} <id> --api-key <key>.

Exit codes: 0 done; 1 the sandbox refused (unknown id, transition not allowed); 2 usage;
3 the sandbox wants --api-key; 4 no sandbox answers at --sandbox-url.`,
  'help.sandbox.ping': 'have a running `paycli sandbox` send the {"test": true} ping to a postback URL (default: its --webhook-url)',
  'help.sandbox.ping.after': `The sandbox sends one POST with the body {"test": true} (signed when it runs with
--postback-secret), as a gateway does to check a new webhook URL, and reports the answer.

Exit codes: 0 delivered (2xx); 1 not delivered (other status, no answer); 2 usage;
3 the sandbox wants --api-key; 4 no sandbox answers at --sandbox-url.`,
  'help.sandbox.events': 'list the postback events of a running `paycli sandbox`, newest first, with their attempts',
  'help.sandbox.events.failed': 'only the events not delivered (given up, or still being retried)',
  'help.sandbox.events.transaction': 'only the events of this transaction',
  'help.sandbox.events.limit': 'show at most this many (default 100)',
  'help.sandbox.events.after': `One line an event: id, transaction, status, URL (without its query), attempts, and its state:
delivered (when), pending (next attempt, last outcome) or gave up (after --retry-for). With --json,
a JSON array of {id, transactionId, object, status, url, state, attempts, createdAt, deliveredAt,
nextAttemptAt, giveUpAt, lastAttempts, body}.

Exit codes: 0 listed (also when none); 2 usage; 3 the sandbox wants --api-key; 4 no sandbox
answers at --sandbox-url.`,
  'help.sandbox.resend': 'have a running `paycli sandbox` send an event again (delivered or not), or every event not delivered with --failed',
  'help.sandbox.resend.failed': 'every event not delivered (given up, or still being retried): sent now',
  'help.sandbox.resend.after': `The event goes back to pending, due now, with a new --retry-for and the first wait; its body is the
same, its x-paycli-delivery-attempt goes on counting. It is sent in order with the other events of
its transaction to that URL. Use it after fixing a postback handler.

Exit codes: 0 queued (also when nothing was left to resend); 1 unknown event id; 2 usage; 3 the
sandbox wants --api-key; 4 no sandbox answers at --sandbox-url.`,
  // ── help of cashin and cashout (src/cli/commands/cashin.ts, cashout.ts) ──
  'help.cashin.description': 'create a PIX cash-in: the gateway answers with a BR Code (QR code) for the payer to pay',
  'help.value': 'amount in cents (1000 = R$ 10,00)',
  'help.amount': 'amount in reais instead of --value: 15, 15,50, 1.234,56',
  'help.cashin.payerName': "payer's name",
  'help.cashin.payerDocument': "payer's CPF or CNPJ (punctuation allowed; alphanumeric CNPJ too)",
  'help.cashin.payerEmail': "payer's e-mail",
  'help.cashin.payerPhone': "payer's phone with DDD, e.g. 11987654321",
  'help.cashin.productName': 'name of the product or service',
  'help.cashin.productDescription': 'description of the product or service',
  'help.cashin.postbackUrl': 'URL that receives the notification when the cash-in changes state',
  'help.cashin.split': 'give part of the amount to another client (repeatable)',
  'help.cashin.orderId': 'your order reference, sent as orderId (default: a new paycli-<ULID>; config key order-id)',
  'help.input': 'read the request body (interface field names) from a JSON file, or - for stdin; flags override it',
  'help.dryRun': 'validate and print the request that would be sent, without sending it',
  'help.cashin.qr': 'draw the QR code in the terminal even when stdout is not a terminal',
  'help.cashin.noQr': 'never draw the QR code',
  'help.cashin.qrFile': 'write the QR code image (PNG) to this file',
  'help.cashin.batch': 'create one cash-in per row of a CSV or JSON Lines file, or - for stdin (docs/batch-runs.md)',
  'help.batchFormat': 'format of the --batch file when its name does not say: csv or jsonl',
  'help.cashin.qrDir': 'with --batch: write each QR code image (PNG) into this folder',
  'help.concurrency': 'with --batch: requests in flight at once, 1-32 (default 4)',
  'help.rate': 'with --batch: start at most this many requests per second',
  'help.results': 'with --batch: write the results here, .csv or .jsonl (default <file>.results.csv; never overwritten)',
  'help.retryRefused': 'with --batch: send again the rows an earlier run of the same file saw refused',
  'help.wait': 'with --batch: when another run of the same file at the same gateway is still running (or stopped), wait for it to end, then continue (default: exit 2, batch_running)',
  'help.cashin.allowDuplicate': 'with --batch: allow two identical rows',
  'help.cashin.yes': 'with --batch: do not ask for confirmation (required when not in a terminal)',
  'help.cashin.promptsComment': '# in a terminal: prompts for every missing field',
  'help.cashout.description': 'send a PIX cash-out (a payout) to a PIX key; asks for confirmation, or --yes',
  'help.cashout.pixKeyType': 'type of the PIX key (also the interface and DICT names: TELEFONE, RANDOM_KEY, EVP, PHONE, or 0-4)',
  'help.cashout.pixKey': 'the destination PIX key',
  'help.cashout.cpfCnpj': 'CPF or CNPJ of the key owner (optional)',
  'help.cashout.personName': "recipient's name",
  'help.cashout.personEmail': "recipient's e-mail",
  'help.cashout.personPhone': "recipient's phone with DDD, e.g. 11987654321",
  'help.cashout.orderId': 'your order reference, sent as orderId (default: a new paycli-<ULID>; config key order-id); the gateway is asked for it first, so a retry sends nothing',
  'help.cashout.postbackUrl': 'URL the gateway notifies when the cash-out changes state (postbackUrl; beyond the interface)',
  'help.cashout.yes': 'do not ask for confirmation (required when not in a terminal)',
  'help.cashout.allowDuplicate': 'send even if an identical cash-out is in the ledger (ok within duplicate-window, or its outcome unknown); recorded as such (with --batch: identical rows too)',
  'help.cashout.batch': 'send one cash-out per row of a CSV or JSON Lines file, or - for stdin (docs/batch-runs.md)',
  'help.cashout.confirmComment': '# in a terminal: asks to confirm',
  // ── help of brcode (src/cli/commands/brcode.ts) ──
  'help.brcode.description': 'inspect, draw and create PIX BR Codes ("copia e cola" / QR code payloads)',
  'help.brcode.after': `Every check names its rule and where the rule comes from (Banco Central, Manual do BR Code;
Manual de Padrões para Iniciação do Pix; EMV QRCPS). Errors make a code invalid (exit 2);
warnings (field limits, structure) are listed, since some banks refuse such codes.`,
  'help.brcode.decode': 'decode a BR Code (text, - for stdin, or --image) and list every problem with its rule',
  'help.brcode.image': 'read the BR Code from the QR code in a PNG image',
  'help.brcode.decode.after': `Prints every field by name: static (a PIX key) or dynamic (a location URL, whose payload holds the
amount), key or URL, merchant name and city, amount in reais, txid, additional information, the
Pix Automático recurrence URL, and objects it does not know, kept as read. --json for scripts.

Exit codes: 0 a valid code (warnings may be listed); 2 an invalid code (problems listed), no QR
code in the image, or nothing to decode.`,
  'help.brcode.qr': 'draw a BR Code as a QR code in the terminal, or write it as PNG or SVG',
  'help.brcode.png': 'write the QR code as a PNG image',
  'help.brcode.svg': 'write the QR code as an SVG image',
  'help.brcode.qr.after': `The code is checked first: an invalid one is not drawn (exit 2). Images carry the four-module
quiet zone readers need. In a terminal narrower than the code nothing is drawn (use --png).`,
  'help.brcode.create': "create a static BR Code for the merchant's own PIX key, printed and drawn",
  'help.brcode.key': 'PIX key that receives: CPF, CNPJ, +55 phone, e-mail or random key',
  'help.brcode.keyType': (names: string) => `the type of --key, needed when 11 bare digits are both a CPF and a mobile number: ${names}`,
  'help.brcode.value': 'fixed amount in cents (1000 = R$ 10,00); omit it and the payer types the amount',
  'help.brcode.amount': 'fixed amount in reais instead of --value: 15, 15,50, 1.234,56',
  'help.brcode.name': 'merchant name, at most 25 characters (accents are dropped)',
  'help.brcode.city': 'merchant city, at most 15 characters (accents are dropped)',
  'help.brcode.txid': 'reference label: 1-25 letters and digits (default *** = none)',
  'help.brcode.info': 'additional information shown to the payer',
  'help.brcode.alsoPng': 'also write the QR code as a PNG image',
  'help.brcode.create.after': `The code is static (no point of initiation object, as the Banco Central manual's example): it can
be paid more than once. With the manual's inputs it is byte-identical to the manual's example.
The type of --key is read from its form; 11 bare digits that are both a valid CPF and a valid
mobile number need --key-type.`,
  'help.brcode.sayWhich': '# both a CPF and a mobile: say which',
  'help.brcode.ambiguous': '# exit 2: ambiguous without --key-type',
  // ── help of config and completion ──
  'help.config.description': 'read and change settings, per profile (--profile or PAYCLI_PROFILE)',
  'help.config.keys': 'Keys:',
  'help.config.headerKey': 'an extra static header sent with every request (a secret, like api-key)',
  'help.config.after': `Secrets (api-key, every header.<Name>, a password in a URL) are shown masked by get/list and
redacted everywhere else. Without a value, set asks for a secret hidden, or reads it from stdin.`,
  'help.config.set': 'set a key; a secret (api-key, header.<Name>) with no value is read from a hidden prompt or stdin',
  'help.config.create': 'make the profile named by --profile when it does not exist yet (else a typo is exit 2, nothing changed)',
  'help.config.get': 'print a key (secrets masked)',
  'help.config.unset': 'remove a key',
  'help.config.list': 'list the keys of the profile (secrets masked)',
  'help.config.profiles': 'list the configured profiles, with the gateway host each one sends to',
  'help.config.path': 'print the path of the config file',
  'help.config.asksComment': '# in a terminal: asks for it, hidden',
  'help.completion.description': 'print the shell completion script for bash, zsh or fish',
  'help.completion.shell': 'the shell',
  'help.completion.after': `Completes commands, flags, --pix-key-type names, config keys, file paths and profile names.
Completing commands and flags runs nothing but the shell. Run the install line again after
upgrading paycli.

Install:
  bash  with bash-completion (loaded on first use):
          mkdir -p ~/.local/share/bash-completion/completions
          paycli completion bash > ~/.local/share/bash-completion/completions/paycli
        without bash-completion:
          paycli completion bash > ~/.paycli.bash && echo 'source ~/.paycli.bash' >> ~/.bashrc
  zsh   into a folder of $fpath:
          mkdir -p ~/.zfunc && paycli completion zsh > ~/.zfunc/_paycli
        and in ~/.zshrc, before compinit:
          fpath=(~/.zfunc $fpath); autoload -Uz compinit && compinit
  fish  paycli completion fish > ~/.config/fish/completions/paycli.fish

Open a new shell afterwards.`,
  // ── config keys (src/config/keys.ts), as `paycli config --help` lists them ──
  'configKey.base-url': 'gateway base URL for both operations, or "sandbox" (default: sandbox)',
  'configKey.cashin-base-url': 'base URL for cash-ins only (gateways that serve them from another host)',
  'configKey.cashout-base-url': 'base URL for cash-outs only',
  'configKey.api-key': 'the gateway API key, sent as "Authorization: Bearer <key>"',
  'configKey.api-key-store': 'keychain: the API key is in the system keychain (set by paycli auth login; removed by auth logout)',
  'configKey.auth-header': 'send the API key raw under this header instead of Authorization: Bearer',
  'configKey.allow-insecure-http': 'true: this profile may send to a plain http:// base URL off loopback (set with base-url and --allow-insecure-http)',
  'configKey.lang': 'language of messages and help: pt-BR or en (default: LC_ALL/LC_MESSAGES/LANG; --lang overrides it)',
  'configKey.timeout': 'request timeout in milliseconds (default 30000)',
  'configKey.ledger-url': 'postgres://USER@HOST:PORT/DATABASE: record payments in this team ledger instead of the local one (PAYCLI_LEDGER_URL overrides)',
  'configKey.ledger-password': "the team ledger's password when ledger-url holds none (then PGPASSWORD, then ~/.pgpass)",
  'configKey.settle-after': 'how long past a payment\'s deadline a lookup\'s "not found" still proves nothing (default 2m; e.g. 90s, 5m)',
  'configKey.duplicate-window': 'minutes within which an identical cash-out is refused (default 10; 0 = off; an unknown outcome blocks until resolved)',
  'configKey.order-id': 'auto (default): give every payment without --order-id a reference paycli-<ULID>; off: send orderId only when given',
  'configKey.lookup': 'auto (default): ask the gateway by orderId before a cash-out and after an unknown outcome; off: never',
  'configKey.lookup-base-url': 'base URL for status, balance and lookups (default: base-url)',
  'configKey.status-path': (d: string) => `lookup path by transaction id (default ${d})`,
  'configKey.status-by-order-path': (d: string) => `lookup path by order reference (default ${d})`,
  'configKey.balance-path': (d: string) => `balance path (default ${d})`,
  'help.history.by': 'only payments sent by this operating-system user on this host (also user alone, or @host)',
  // ── the manual page (src/cli/man.ts) ──
  'man.userCommands': 'User Commands',
  'man.name': 'NAME',
  'man.synopsis': 'SYNOPSIS',
  'man.description': 'DESCRIPTION',
  'man.globalOptions': 'GLOBAL OPTIONS',
  'man.commands': 'COMMANDS',
  'man.exitStatus': 'EXIT STATUS',
  'man.notes': 'NOTES',
  'man.seeAlso': 'SEE ALSO',
  'man.synopsisOptions': '.B paycli\n[\\fIglobal options\\fR] \\fIcommand\\fR [\\fIoptions\\fR]',
  'man.synopsisHelp': '.br\n.B paycli help\n[\\fIcommand\\fR [\\fIsubcommand\\fR]]',
  'man.everyCommand': '.PP\nEvery command prints its help with \\fB\\-\\-help\\fR, or \\fBpaycli help\\fR \\fIcommand\\fR; this page holds all of them.',
  'man.beforeOrAfter': 'Accepted before or after the command name.',
  'man.andGlobal': 'and the global options (GLOBAL OPTIONS).',
  'man.seeAlsoText': 'README.md of paycli: set-up and everyday examples; docs/ in its repository: every command explained, the gateway contract, the architecture.',
  // ── batch runs (src/cli/batch/) ──
  'batch.count': (n: number, kind: 'cashin' | 'cashout') => `${n} ${kind === 'cashin' ? `cash-in${n === 1 ? '' : 's'}` : `cash-out${n === 1 ? '' : 's'}`}`,
  'batch.rows': (n: number) => `${n} row${n === 1 ? '' : 's'}`,
  'batch.sandboxGateway': 'SANDBOX (built-in; no money moves)',
  'batch.summary.file': (name: string, rows: string, sha: string) => `File         ${name} (${rows}, sha256 ${sha}…)`,
  'batch.summary.toSend': (what: string, total: string) => `To send      ${what}, ${total} in total`,
  'batch.summary.largest': (reais: string, row: number) => `Largest      ${reais} (row ${row})`,
  'batch.summary.alreadyOk': (rows: string) => `Already paid ${rows} (an earlier run; skipped)`,
  'batch.summary.refused': (rows: string) => `Refused      ${rows} by an earlier run (skipped; --retry-refused sends them again)`,
  'batch.summary.unknown': (rows: string) => `Unknown      ${rows} of an earlier run: asked at the gateway first, sent only if it never got them`,
  'batch.summary.profile': (profile: string) => `Profile      ${profile}`,
  'batch.summary.gateway': (gateway: string) => `Gateway      ${gateway}`,
  'batch.needsYes': (what: string) => `a batch run sends ${what}: pass --yes to confirm when not running interactively; nothing was sent`,
  'batch.needsYesHint': 'add --yes (or check the file first with --dry-run)',
  'batch.confirm': (what: string) => `Send these ${what}?`,
  'batch.notConfirmed': 'batch not confirmed; nothing was sent',
  'batch.progress': (done: number, total: number, ok: number, refused: number, unknown: number, sent: string, rate: string, left: number) => `batch: ${done}/${total} rows (ok ${ok}, refused ${refused}, unknown ${unknown}), ${sent} sent, ${rate}/s, about ${left} s left`,
  'batch.sameRow': (kind: 'cashin' | 'cashout', first: number) => `is the same ${kind === 'cashin' ? 'cash-in' : 'cash-out'} as row ${first} (${kind === 'cashout' ? 'amount, key type and PIX key' : 'amount, payer document and product'}); pass --allow-duplicate if both are meant`,
  'batch.bar': ' {bar} {value}/{total} | ok {ok} · refused {refused} · unknown {unknown} | {reais} | {rate}/s | {eta_formatted} left',
  'batch.interrupted': (n: number) => `interrupted: starting no more rows; waiting for the ${n} in flight (Ctrl-C again to abort them: their outcome may then be unknown)`,
  'batch.notStarted': (n: number) => `interrupted: ${n} row${n === 1 ? ' was' : 's were'} not started; run the same command again to resume`,
  'batch.allPaid': (name: string) => `every row of ${name} was paid at this gateway by an earlier run (the same file, by its SHA-256): nothing to send`,
  // ── paycli config (src/cli/run/config.ts) ──
  'config.unknownKey': (key: string, keys: string) => `unknown config key "${key}"; valid keys: ${keys}, header.<Name>`,
  'config.noProfiles': 'no profile is configured: commands use the built-in sandbox (set one up with `paycli config set base-url <url>`)',
  'config.emptyProfile': (profile: string) => `profile "${profile}" has no settings (so it uses the built-in sandbox)`,
  'config.notSet': (key: string, profile: string) => `${key} is not set in profile "${profile}"`,
  'config.nothingToRemove': (key: string, profile: string) => `${key} is not set in profile "${profile}": nothing to remove`,
  'config.removed': (key: string, profile: string) => `${key} removed from profile "${profile}"`,
  'config.set': (key: string, profile: string, masked: string, insecure: boolean) => `${key} set in profile "${profile}"${masked ? ` (${masked})` : ''}${insecure ? ', with allow-insecure-http true (plain http remembered for this profile)' : ''}`,
  // ── paycli auth (src/cli/run/auth.ts) ──
  'auth.refused': (host: string, message: string) => `${host} refused this API key (${message}); nothing was kept`,
  'auth.refusedHint': "check the key (test or live?) and the profile's base URL",
  'auth.uncheckedNetwork': (why: string) => `the key could not be checked: ${why}; nothing was kept`,
  'auth.uncheckedHint': 'try again, or keep it unchecked with --no-check',
  'auth.uncheckedKept': (why: string) => `the key could not be checked (${why}); kept anyway`,
  'auth.kept': (checked: boolean, host: string, masked: string, profile: string, where: string) => `${checked ? `${host} accepts the API key` : 'API key not checked'} (${masked}) for profile "${profile}"; kept in ${where}`,
  'auth.configFile': (path: string) => `the config file ${path} (mode 0600)`,
  'auth.noKeychain': (said: string, why: string) => `${said}: no keychain to use (${why})`,
  'auth.envWins': 'PAYCLI_API_KEY is set in this environment: it wins over the key just kept',
  'auth.status.profile': 'Profile',
  'auth.status.gateway': 'Gateway',
  'auth.status.keptIn': 'Kept in',
  'auth.status.key': 'Key',
  'auth.status.accepted': 'Accepted',
  'auth.status.sandboxHost': 'the built-in sandbox',
  'auth.store.env': 'the environment (PAYCLI_API_KEY)',
  'auth.store.file': 'the config file',
  'auth.store.none': 'nowhere',
  'auth.says.sandbox': 'not asked (the built-in sandbox needs no key)',
  'auth.says.noKey': 'not asked (no key)',
  'auth.says.yes': 'yes, the gateway accepts the key',
  'auth.says.no': (message: string) => `no, the gateway refuses it (${message})`,
  'auth.says.unknown': (why: string) => `not known (${why})`,
  'auth.noKey': (profile: string, problem: string) => `no API key for profile "${profile}"${problem ? `: ${problem}` : ''}`,
  'auth.runLogin': (command: string) => `run \`${command}\``,
  'auth.refusesProfile': (host: string, profile: string) => `${host} refuses the API key of profile "${profile}"`,
  'auth.runLoginRight': (command: string) => `run \`${command}\` with the right key`,
  // ── status, reconcile, cash-in extras (src/cli/run/) ──
  'status.both': 'give either a transaction id or --order-id, not both; nothing was asked',
  'status.none': 'give the transaction id (e.g. paycli status 9029) or --order-id <ref>',
  'status.notNumber': (id: string) => `the transaction id must be a whole number (the gateway's transactionId), got "${id}"`,
  'status.noLookup': (answer: string) => `the gateway has no such lookup (${answer})`,
  'status.noLookupHint': 'check the base URL and the config keys status-path / status-by-order-path (`paycli config list`)',
  'reconcile.interrupted': 'interrupted: reconcile stopped (what it settled so far is recorded)',
  'reconcile.nothing': (since: string) => `no payment with an unknown outcome${since ? ` since ${since}` : ''}: nothing to reconcile`,
  'reconcile.settled': (settled: number, total: number, left: number) => `${settled} of ${total} settled${left ? `; ${left} still unknown` : ''}`,
  'cashin.tooNarrow': (columns: number) => `the terminal is too narrow (${columns} columns) to draw this QR code readably: use --qr-file qr.png, or \`paycli brcode qr --png qr.png <code>\``,
  'cashin.qrWritten': (file: string) => `QR code image written to ${file}`,
  'cashin.notPng': (tx: string, file: string) => `the cash-in was created (transaction ${tx}), but qrCodeBase64 is not a base64 PNG image; nothing was written to ${file}`,
  'cashin.qrNotWritten': (tx: string, file: string, why: string) => `the cash-in was created (transaction ${tx}), but ${file} could not be written (${why})`,
  'cashin.attentionHint': (tx: string) => `the cash-in exists at the gateway (transaction ${tx}); do not hand its BR Code to a payer until it is checked`,
  'cashout.attentionHint': (tx: string) => `the cash-out exists at the gateway (transaction ${tx}); check it there before anything else`,
  // ── paycli history (src/cli/run/history.ts) ──
  'history.col.entry': 'ENTRY',
  'history.col.by': 'BY',
  'history.col.kind': 'KIND',
  'history.col.amount': 'AMOUNT',
  'history.col.outcome': 'OUTCOME',
  'history.col.toFrom': 'TO / FROM',
  'history.kind.cashout': 'cash-out',
  'history.kind.cashin': 'cash-in',
  'history.outcome.ok': 'ok',
  'history.outcome.refused': 'refused',
  'history.outcome.unknown': 'unknown',
  'history.outcome.not_sent': 'not_sent',
  'history.kindInvalid': (text: string) => `--kind: use cashin or cashout, got "${text}"`,
  'history.outcomeInvalid': (flag: string, allowed: string, text: string) => `${flag}: use one of ${allowed}, got "${text}"`,
  'history.byInvalid': (text: string) => `--by: use user@host, user or @host, got "${text}"`,
  'history.limitInvalid': (text: string) => `--limit: must be a positive whole number or all, got "${text}"`,
  'history.formatInvalid': (text: string | undefined) => `--format: use table, json or csv, got "${text}"`,
  'history.jsonAndFormat': (format: string) => `--json and --format ${format} ask for two formats: --json is --format json`,
  'history.untilBeforeSince': '--until is not after --since: nothing could match',
  'history.noneMatches': 'no payment in the ledger matches',
  'history.noneYet': (path: string) => `nothing sent from this machine yet (ledger: ${path})`,
  'history.sandboxFootnote': '* sent to the built-in sandbox: no money moved',
  'history.entryInvalid': (text: string) => `entry: the entry number as \`paycli history\` shows it, got "${text}"`,
  'history.outcomeRequired': '--outcome is required: ok (the gateway has it: it was paid), not_sent (the gateway never received it) or refused',
  'history.noLedger': (entry: string, path: string) => `there is no ledger entry ${entry}: nothing was recorded on this machine yet (${path})`,
  'history.inFlight': (entry: number, run: string) => `ledger entry ${entry} belongs to a paycli run that is still going${run ? ` (${run})` : ''}: it may still be sent, or its answer still come; nothing was changed`,
  'history.inFlightHint': (otherHost: boolean) => `let that run end (or stop it), then resolve it; --force records the outcome anyway${otherHost ? ' (the run is on another host, so whether it is alive cannot be told from here)' : ''}`,
  'history.resolvedCashout': (amount: string, to: string, time: string) => `cash-out ${amount} to ${to} at ${time}`,
  'history.resolvedCashin': (amount: string, from: string, time: string) => `cash-in ${amount} from ${from} at ${time}`,
  'history.resolvedOkEffect': '; an identical cash-out is now refused within the duplicate window of when it was sent',
  'history.resolvedFreedEffect': '; it no longer blocks an identical cash-out',
  'history.resolved': (entry: number, what: string, outcome: string, effect: string) => `entry ${entry} (${what}) resolved: ${outcome}${effect}`,
} as const;

/** The keys of every catalog. */
export type Key = keyof typeof en;

/** A catalog: for every key of {@link en}, a text, or a function of the same parameters. */
export type Catalog = {
  readonly [K in Key]: (typeof en)[K] extends (...args: infer A) => string ? (...args: A) => string : string;
};
