/**
 * O catálogo em português do Brasil: as mesmas chaves de ./en.ts (tipado {@link Catalog}: uma
 * chave faltando não compila).
 *
 * Vocabulário (escrito como um brasileiro escreve, docs/portugues.md):
 * - cash-in → "cobrança" (um pedido de pagamento por PIX: o pagador paga um BR Code / QR code);
 * - cash-out → "saque" (o envio de dinheiro da conta para uma chave PIX; "repasse" só quando o texto
 *   fala de pagar a terceiros em lote); o comando continua `cashout`;
 * - PIX key → "chave PIX"; amount → "valor"; ledger → "registro local"; postback → "postback";
 *   order reference → "referência do pedido"; profile → "perfil"; gateway → "gateway".
 * - valores como `R$ 1.234,56`; confirmação `(s/N)` aceita s/sim e também y/yes.
 *
 * Longer than 500 lines: the same keys as ./en.ts, in one object for the same reason.
 */
import type { Catalog } from './en.js';

export const ptBR: Catalog = {
  'lang.invalid': (choices) => `use um destes: ${choices}`,
  'lang.flag': 'idioma das mensagens e da ajuda: pt-BR ou en (padrão: chave de configuração lang, depois LC_ALL/LC_MESSAGES/LANG)',
  // ── hora local, codificações, planilhas (src/core/local-time.ts, src/core/text-encoding.ts, src/cli/csv-dialect.ts) ──
  'time.column': 'HORA',
  'time.boundInvalid': (flag, text) => `${flag}: use uma duração como 30m, 24h, 7d ou 2w, um dia como 2026-11-01, 01/11/2026, hoje ou ontem (today, yesterday), ou um horário como 2026-11-01T12:00:00-03:00; recebido "${text}"`,
  'encoding.invalid': (text) => `--encoding: use utf-8, windows-1252 ou latin1, recebido "${text}"; nada foi enviado`,
  'encoding.notUtf8': (flag, name, line, column, byte) => `${flag}: ${name} não é UTF-8 válido: linha ${line}, caractere ${column} (byte ${byte}); nada foi enviado`,
  'encoding.hintWindows1252': (line, text) => `o arquivo se lê como Windows-1252 (o "CSV" que o Excel salva no Windows): a linha ${line} seria "${text}"; use --encoding windows-1252, ou salve o arquivo como "CSV UTF-8"`,
  'encoding.hintOther': 'salve o arquivo em UTF-8, ou use --encoding windows-1252 ou latin1 se ele foi escrito em uma dessas',
  'encoding.bom': (flag, name, encoding) => `${flag}: ${name} começa com a marca de ordem de bytes do UTF-8: ele é UTF-8, não ${encoding}; nada foi enviado`,
  'encoding.bomHint': 'tire o --encoding',
  'encoding.replacement': (code, at) => `não é UTF-8 válido: contém ${code}, o caractere de substituição (no caractere ${at}), onde bytes de outra codificação (como Windows-1252) foram lidos como UTF-8; as letras originais se perderam`,
  'encoding.lostText': (code, at) => `contém ${code} (no caractere ${at}), um caractere que representa texto perdido`,
  'encoding.argv': (what, at) => `${what} não é UTF-8 válido (o caractere ${at} é U+FFFD, o caractere de substituição, onde a linha de comando tinha bytes de outra codificação); nada foi feito`,
  'encoding.argvHint': 'configure o terminal (ou o script) em UTF-8; os bytes originais não podem ser recuperados da linha de comando. Um arquivo em Windows-1252 ou Latin-1 pode ser lido com --input ou --batch e --encoding',
  'encoding.flag': 'como o arquivo de --input ou --batch está escrito: utf-8 (o padrão; outros bytes são recusados), windows-1252 (o "CSV" do Excel no Windows) ou latin1',
  'csv.dialectInvalid': (text) => `--csv-dialect: use br ou intl, recebido "${text}"`,
  'csv.dialectNeedsCsv': '--csv-dialect é para --format csv',
  'csv.dialectFlagHistory': 'com --format csv: br (separado por ;, nomes de coluna em português, 1.234,56, hora local; o padrão em português) ou intl (separado por vírgula, nomes em inglês)',
  'csv.dialectFlagBatch': 'com --batch: um arquivo de resultados .csv em br (separado por ;, nomes de coluna em português, valores como 1.234,56; o padrão em português) ou intl (separado como a entrada, nomes em inglês, centavos)',
  'batch.valorNeedsCentavos': (raw) => `"${raw}" deve estar em reais com vírgula decimal e dois centavos, ex.: 15,00 ou 1.234,56 (uma coluna em centavos se chama valor-centavos)`,
  'history.sinceFlag': 'só pagamentos registrados desde: uma duração para trás (30m, 24h, 7d, 2w), um dia local (2026-11-01, 01/11/2026, hoje, ontem, today, yesterday) ou um horário (2026-11-01T12:00:00-03:00)',
  'history.untilFlag': 'só pagamentos registrados antes de (um dia inclui o dia local inteiro)',
  // ── message prefixes (src/core/logger.ts) ──
  'log.error': 'erro:',
  'log.warning': 'aviso:',
  'log.hint': 'dica:',
  // ── help layout (src/cli/help.ts): commander's headings and notes ──
  'help.title.usage': 'Uso:',
  'help.title.options': 'Opções:',
  'help.title.globalOptions': 'Opções globais:',
  'help.title.commands': 'Comandos:',
  'help.title.arguments': 'Argumentos:',
  'help.title.examples': 'Exemplos:',
  'help.choices': 'opções:',
  'help.default': 'padrão:',
  'help.after.error': '(rode com --help para ver o uso)',
  'help.option.help': 'mostra a ajuda',
  'help.option.helpCommand': 'mostra a ajuda do comando',
  // ── commander's own errors, as paycli shows them ──
  'cmdr.unknownOption': (flag) => `opção desconhecida '${flag}'`,
  'cmdr.didYouMean': (name) => `(Você quis dizer ${name}?)`,
  'cmdr.argumentMissing': (flags) => `falta o valor da opção '${flags}'`,
  'cmdr.invalidArgument': (flags, value) => `o valor '${value}' da opção '${flags}' é inválido.`,
  'cmdr.missingArgument': (name) => `falta o argumento obrigatório '${name}'`,
  'cmdr.tooManyArguments': (where, expected, got) => `argumentos demais${where}. Esperava ${expected} argumento${expected === 1 ? '' : 's'}, veio ${got}.`,
  'cmdr.unknownCommand': (word, where) => `comando desconhecido '${word}'${where}`,
  'cmdr.for': (path) => ` de '${path}'`,
  'cmdr.knownCommands': (where, names) => `(comandos conhecidos${where}: ${names})`,
  // ── paycli --help (src/cli/program.ts) ──
  'root.description': 'Cobranças PIX (BR Code / QR code) e saques (pagamentos para uma chave PIX) num gateway de pagamento.\nSem gateway configurado, os comandos rodam num sandbox embutido, onde nenhum dinheiro se move.',
  'root.version': 'mostra a versão (com --verbose: também o Node, o driver SQLite e onde ficam o registro local, a configuração e o cache)',
  'root.json': 'imprime o resultado como um documento JSON no stdout (erros em JSON no stderr)',
  'root.profile': 'perfil de configuração a usar (env PAYCLI_PROFILE; padrão "default")',
  'root.baseUrl': 'URL base do gateway, ou "sandbox" (env PAYCLI_BASE_URL)',
  'root.timeout': 'tempo limite da requisição em milissegundos (padrão 30000)',
  'root.verbose': 'mostra a requisição e a resposta no stderr (credencial ocultada)',
  'root.noColor': 'sem cores (também NO_COLOR=1)',
  'root.noInput': 'nunca pergunta; falha se faltar algum campo (também PAYCLI_NO_INPUT=1)',
  'root.allowInsecureHttp': 'permite uma URL base http:// (sem TLS) para um host que não é o loopback',
  'root.exitCodes': 'Códigos de saída:',
  'root.environment': 'Ambiente:',
  'root.example.cashoutComment': '# num terminal: pede a chave, sem mostrá-la',
  'root.environmentText': '  PAYCLI_PROFILE, PAYCLI_BASE_URL, PAYCLI_API_KEY têm precedência sobre o perfil; as opções, sobre ambos.\n  PAYCLI_NO_INPUT=1, NO_COLOR=1, HTTPS_PROXY/HTTP_PROXY/NO_PROXY, NODE_EXTRA_CA_CERTS.\n  PAYCLI_POSTBACK_SECRET assina (sandbox) e confere (listen) os postbacks.\n  PAYCLI_CONFIG_DIR, PAYCLI_DATA_DIR, PAYCLI_CACHE_DIR mudam o arquivo de configuração, a pasta de dados e\n  o cache de código (NODE_DISABLE_COMPILE_CACHE=1 desliga o cache).\n  LC_ALL, LC_MESSAGES, LANG: um valor que começa com pt dá português (salvo --lang ou a chave de configuração lang).',
  // ── exit codes (src/core/errors.ts EXIT_CODE_SUMMARY) ──
  'exit.0': 'sucesso (um lote: todas as linhas ok, ou já ok)',
  'exit.1': 'o gateway recusou a requisição (4xx que não 401/403); a mensagem dele é mostrada (um lote: algumas linhas recusadas)',
  'exit.2': 'erro de uso ou de validação, nada foi enviado (também: saque não confirmado, saque duplicado, registro local inutilizável ou ocupado; um arquivo de lote com linhas ruins)',
  'exit.3': 'a autenticação falhou (401/403) ou não há chave de API configurada',
  'exit.4': 'falha de rede ou tempo esgotado (resultado desconhecido se a requisição pode ter sido enviada; um lote: algumas linhas desconhecidas)',
  'exit.5': 'o gateway falhou ou respondeu fora da interface (5xx, não JSON, formato errado; um lote: algumas linhas desconhecidas)',
  'exit.6': 'criado, mas precisa de atenção (valores ou BR Code errados na resposta; resultado não gravado; um lote: algumas linhas precisam de uma pessoa)',
  'exit.70': 'erro interno (um bug no paycli)',
  'exit.130': 'interrompido (Ctrl-C, ou SIGTERM durante uma requisição; um lote: as linhas em andamento ficam registradas, rode de novo para continuar)',
  // ── paycli help (src/cli/help.ts) ──
  'help.cmd.description': 'mostra a ajuda de um comando, p. ex. paycli help config set; `paycli help examples` mostra onde estão os arquivos de exemplo',
  'help.cmd.argument': 'um comando e seus subcomandos, ou examples',
  'help.cmd.after': (files) => `paycli help examples mostra a pasta dos arquivos de exemplo que vêm com o paycli (${files}),\nusados nos exemplos de todo --help; copie o arquivo antes de alterá-lo.`,
  'help.usage.options': 'opções',
  'help.usage.command': 'comando',
  'config.lang.invalid': (value) => `lang deve ser pt-BR ou en, veio "${value}"`,
  // ── amounts (src/pix/money.ts) ──
  'money.empty': 'está vazio; escreva um valor em reais, p. ex. 15,50',
  'money.negative': (text) => `"${text}" é negativo; escreva um valor positivo em reais, p. ex. 15,50`,
  'money.ambiguous': (text, reais, whole, alt) => `"${text}" é ambíguo (milhar ou 3 casas decimais?); para ${reais} escreva ${whole} ou ${alt},00`,
  'money.decimals': (text) => `"${text}" tem mais de 2 casas decimais; real tem 2 (centavos), p. ex. 15,50`,
  'money.notAmount': (text) => `"${text}" não é um valor em reais com até 2 casas decimais; p. ex. 15, 15,50 ou 1.234,56`,
  'money.zero': 'deve ser mais que R$ 0,00, p. ex. 15,50',
  'money.tooMuch': (reais, max) => `${reais} é mais que o máximo que o paycli envia, ${max}; p. ex. 15,50`,
  // ── CPF and CNPJ (src/pix/documents.ts) ──
  'doc.what.cpf': 'CPF',
  'doc.what.cnpj': 'CNPJ',
  'doc.what.cpf-or-cnpj': 'CPF ou CNPJ',
  'doc.invalid': (what, detail) => `não é um ${what} válido: ${detail}`,
  'doc.sizes.cpf': 'um CPF tem 11 dígitos',
  'doc.sizes.cnpj': 'um CNPJ tem 14 caracteres',
  'doc.sizes.cpf-or-cnpj': 'um CPF tem 11 dígitos, um CNPJ 14 caracteres',
  'doc.empty': (sizes) => `está vazio; ${sizes}`,
  'doc.badChar': (ch) => `contém "${ch}"; só são aceitos dígitos, letras (CNPJ) e os caracteres de máscara . / -`,
  'doc.cpfDigitsOnly': 'um CPF só tem dígitos',
  'doc.cpfSame': 'os 11 dígitos do CPF são iguais',
  'doc.cpfCheck': 'os dígitos verificadores do CPF não conferem (um caractere foi digitado errado ou dois foram trocados)',
  'doc.cnpjCheckDigits': 'os 2 últimos caracteres de um CNPJ (os dígitos verificadores) devem ser dígitos',
  'doc.cnpjSame': 'os 14 dígitos do CNPJ são iguais',
  'doc.cnpjCheck': 'os dígitos verificadores do CNPJ não conferem (um caractere foi digitado errado ou dois foram trocados)',
  'doc.length': (n, sizes) => `tem ${n} caractere${n === 1 ? '' : 's'} sem a máscara; ${sizes}`,
  // ── PIX keys (src/pix/pixkey.ts, src/pix/pix-key-types.ts) ──
  'pixkey.noun.cpf': 'uma chave CPF',
  'pixkey.noun.cnpj': 'uma chave CNPJ',
  'pixkey.noun.email': 'uma chave de e-mail',
  'pixkey.noun.phone': 'uma chave de telefone',
  'pixkey.noun.random': 'uma chave aleatória',
  'pixkey.description.cpf': 'CPF (11 dígitos)',
  'pixkey.description.cnpj': 'CNPJ (14 caracteres, letras aceitas)',
  'pixkey.description.email': 'endereço de e-mail',
  'pixkey.description.phone': 'celular (+55, DDD, número)',
  'pixkey.description.random': 'chave aleatória (EVP, um UUID)',
  'pixkey.typeHelp': (names) => `${names} (também TELEFONE e RANDOM_KEY da interface, EVP e PHONE do DICT, ou 0-4)`,
  'pixkey.useOneOf': (list) => `use um destes: ${list}`,
  'pixkey.notCpf': 'não é um CPF: uma chave CPF tem 11 dígitos (pontos e traço aceitos)',
  'pixkey.notCpfShort': 'não é um CPF',
  'pixkey.notCnpj': 'não é um CNPJ: uma chave CNPJ tem 14 caracteres (pontos, barra e traço aceitos)',
  'pixkey.notCnpjShort': 'não é um CNPJ',
  'pixkey.notEmail': 'não é uma chave de e-mail',
  'pixkey.landline': 'é um número fixo; uma chave PIX de telefone é um celular: +55, DDD e 9 dígitos começando com 9',
  'pixkey.notRandom': 'não é uma chave aleatória: um UUID de 32 dígitos hexadecimais em grupos 8-4-4-4-12',
  'pixkey.looksLike': (noun, name) => `; parece ${noun}: use --pix-key-type ${name}`,
  'pixkey.example': (noun, example) => `; ${noun} é assim: ${example}`,
  // ── contact data (src/pix/contact.ts) ──
  'contact.invisible': 'um caractere invisível',
  'contact.aName': (name) => name,
  'contact.oneLine': 'deve ser uma linha só, sem caracteres de controle (tabulações, quebras de linha)',
  'contact.onlyVisible': (what) => `contém ${what}; só são aceitos caracteres visíveis e espaços`,
  'contact.empty': 'está vazio',
  'contact.emailChar': (what, allowed) => `contém ${what}; um endereço de e-mail se escreve com letras ASCII, dígitos e ${allowed}`,
  'contact.emailLong': (n, max) => `tem ${n} caracteres, mais que os ${max} permitidos para um endereço de e-mail`,
  'contact.emailKeyChar': (what, allowed) => `contém ${what}; uma chave de e-mail só tem letras ASCII, dígitos e ${allowed} (DICT)`,
  'contact.emailKeyLong': (n, max) => `tem ${n} caracteres; uma chave de e-mail tem no máximo ${max}`,
  'contact.emailKeyLocal': (ch, allowed) => `contém "${ch}", que uma chave de e-mail do DICT não pode ter antes do @ (aceitos: letras, dígitos e ${allowed})`,
  'contact.notEmail': 'não é um endereço de e-mail (nome@dominio.com.br)',
  'contact.phoneChar': (what) => `contém ${what}; só são aceitos dígitos, +, espaços e ( ) -`,
  'contact.phoneDigits': (n, after) => `tem ${n} dígito${n === 1 ? '' : 's'}${after}; precisa do DDD e do número: 10 dígitos (fixo) ou 11 (celular)`,
  'contact.phoneDdd': (ddd, list) => `tem DDD ${ddd}, que não existe (DDDs da Anatel: ${list})`,
  'contact.phoneAdd9': (fixed) => `não é um número válido: 10 dígitos formam um fixo, cujo número depois do DDD começa com 2-5; um celular tem 9 dígitos depois do DDD, começando com 9 (falta o 9: ${fixed}?)`,
  'contact.phoneFixed': 'não é um número válido: 10 dígitos formam um fixo, cujo número depois do DDD começa com 2-5 (Anatel)',
  'contact.phoneMobile': 'não é um celular válido: com 11 dígitos, o número depois do DDD deve começar com 9',
  'contact.afterCountry': ' depois do código do país',
  'contact.after0055': ' depois de 0055',
  'contact.afterTrunk': ' depois do prefixo de operadora 0',
  // ── request fields (src/gateway/schemas.ts, src/gateway/fields.ts) ──
  'schema.required': 'é obrigatório',
  'schema.mustBe': (what) => `deve ser ${what}`,
  'schema.eg': (example) => `p. ex. ${example}`,
  'schema.what.cents': 'um número inteiro de centavos, p. ex. 1000 para R$ 10,00',
  'schema.centsFraction': (v) => `deve ser um número inteiro de centavos, não ${v}; p. ex. 1050 para R$ 10,50`,
  'schema.centsMin': (v) => `deve ser pelo menos 1 centavo, não ${v}; p. ex. 1000 para R$ 10,00`,
  'schema.centsMax': (max, v) => `deve ser no máximo ${max} centavos (R$ 100.000.000,00), não ${v}; p. ex. 1000 para R$ 10,00`,
  'schema.what.text': (example) => `um texto, p. ex. "${example}"`,
  'schema.notEmpty': (example) => `não pode ser vazio, p. ex. "${example}"`,
  'schema.tooLong': (n, max, example) => `tem ${n} caracteres, mais que os ${max} permitidos; p. ex. "${example}"`,
  'schema.what.email': 'um endereço de e-mail, p. ex. fulano@example.com',
  'schema.what.phone': 'um número de telefone, p. ex. (11) 98765-4321',
  'schema.phoneExample': 'p. ex. (11) 98765-4321 ou +55 11 3456-7890',
  'schema.what.document': 'um CPF ou CNPJ, p. ex. 123.456.789-09',
  'schema.documentExample': 'p. ex. 123.456.789-09 (CPF) ou 12.ABC.345/01DE-35 (CNPJ)',
  'schema.what.url': 'uma URL, p. ex. https://example.com/pix/postback',
  'schema.urlLong': (max) => `tem mais de ${max} caracteres; p. ex. https://example.com/pix/postback`,
  'schema.urlNotHttp': 'não é uma URL http(s) absoluta, p. ex. https://example.com/pix/postback',
  'schema.splitTwice': (id) => `${id} já tem um split; dê a cada cliente um split só, com o valor inteiro, p. ex. ${id}:300`,
  'schema.splitSum': (sum, sumReais, value, valueReais) => `somam ${sum} centavos (${sumReais}), mais que o valor de ${value} centavos (${valueReais}); os splits devem somar no máximo o valor`,
  'schema.pixKeyType': (list, got) => `deve ser um destes: ${list}, não ${got}; p. ex. email`,
  'schema.what.pixKey': 'uma chave PIX, p. ex. fulano@example.com',
  'schema.pixKeyEmpty': 'não pode ser vazia, p. ex. fulano@example.com ou 123.456.789-09',
  'fields.inInput': (path, input) => `${path || 'o documento JSON'} (em --input ${input})`,
  'fields.inInputShort': (path) => `${path} (em --input)`,
  'fields.request': 'requisição',
  'fields.forReais': ' (para reais, use --amount 10,50)',
  'fields.splits': (flag, msg) => `${flag}: os splits ${msg}`,
  'fields.splitN': (n) => `split nº ${n}`,
  'fields.splitNoAmount': (flag, n, example) => `${flag}: ${n} não tem valor em centavos; escreva clientId:centavos, p. ex. ${flag} ${example}`,
  'fields.splitNoClient': (flag, n, example) => `${flag}: ${n} não tem id de cliente; escreva clientId:centavos, p. ex. ${flag} ${example}`,
  'fields.splitAmount': 'valor',
  'fields.splitClient': 'id de cliente',
  'fields.missingFields': (n, list) => `falta${n > 1 ? 'm' : ''} ${n > 1 ? 'os campos obrigatórios' : 'o campo obrigatório'} (em --input ou como opções): ${list}`,
  'fields.missingFlags': (n, list) => `falta${n > 1 ? 'm' : ''} ${n > 1 ? 'as opções obrigatórias' : 'a opção obrigatória'}: ${list}`,
  'fields.oneProblem': (line) => `${line}; nada foi enviado`,
  'fields.problems': (n, lines) => `a requisição tem ${n} problemas; nada foi enviado:\n  ${lines}`,
  'fields.missingHint': 'passe as opções, use --input <arquivo>, ou rode num terminal para responder às perguntas',
  'schema.what.uuid': 'um UUID, p. ex. 123e4567-e12b-12d1-a456-426655440000',
  'schema.what.splits': 'uma lista de objetos {clientId, value}, p. ex. [{"clientId": "123e4567-e12b-12d1-a456-426655440000", "value": 300}]',
  'schema.what.person': 'um objeto com name, email e phone, p. ex. {"name": "Fulano de Tal", "email": "fulano@example.com", "phone": "11987654321"}',
  // ── the gateway's answers and the network (src/gateway/client.ts) ──
  'net.lookupFailed': (what) => `${what}: a consulta falhou (uma consulta não muda nada no gateway)`,
  'net.afterSent': (what, advice) => `${what} depois que a requisição foi enviada: o resultado é desconhecido; ${advice}`,
  'net.beforeSent': (what) => `${what} antes de a requisição ser enviada: nada chegou ao gateway`,
  'net.interruptedLookup': 'interrompido durante uma consulta (uma consulta não muda nada no gateway)',
  'net.interruptedAfter': (advice) => `interrompido depois que a requisição foi enviada: o resultado é desconhecido; ${advice}`,
  'net.interruptedBefore': 'interrompido antes de a requisição ser enviada: nada chegou ao gateway',
  'net.noAnswer': (ms) => `sem resposta em ${ms} ms`,
  'net.cannotConnect': (host, code) => `não foi possível conectar a ${host} (${code}): nada foi enviado`,
  'net.cannotConnectHint': 'confira --base-url / `paycli config get base-url` e a sua rede',
  'net.connectionFailed': (why) => `a conexão falhou (${why})`,
  'net.unknownError': 'erro desconhecido',
  'net.proxyAuth': 'o proxy pediu autenticação (HTTP 407 Proxy Authentication Required): nada foi enviado',
  'net.proxyAuthHint': 'ponha as credenciais do proxy na variável do proxy (HTTPS_PROXY=http://usuario:senha@proxy:porta), ou defina NO_PROXY para este gateway',
  'net.proxyRefused': (status) => `o proxy recusou a conexão com o gateway (HTTP ${status}): nada foi enviado`,
  'net.proxyRefusedHint': 'confira HTTPS_PROXY / HTTP_PROXY / NO_PROXY',
  'gw.tooBig': (max, lookup) => `a resposta do gateway tem mais de ${max} bytes; recusada${lookup ? '' : ' (a requisição foi recebida: confira o resultado no gateway)'}`,
  'gw.unknownTail': (advice) => `; o resultado é desconhecido: ${advice}`,
  'gw.nowhere': 'lugar nenhum',
  'gw.redirectLookup': (status, location) => `o gateway respondeu HTTP ${status}, um redirecionamento para ${location}; o paycli não segue redirecionamentos (a credencial iria junto)`,
  'gw.redirectPost': (status, location) => `o gateway respondeu HTTP ${status}, um redirecionamento para ${location}; o paycli nunca segue um redirecionamento num POST (reenviaria o pagamento)`,
  'gw.redirectLookupHint': 'confira a URL base e os caminhos de consulta (`paycli config list`)',
  'gw.redirectPostHint': 'confira a URL base (https://, caminho no final)',
  'gw.unauthorized': (status, message) => `o gateway recusou a credencial (HTTP ${status}${message ? `: ${message}` : ''})`,
  'gw.unauthorizedHint': (command) => `entre com \`${command}\` (ou defina PAYCLI_API_KEY)`,
  'gw.noMessage': (status) => `HTTP ${status} sem mensagem de erro`,
  'gw.failed': (status, what, tail) => `o gateway falhou (HTTP ${status}${what})${tail}`,
  'gw.with': (what) => ` com ${what}`,
  'gw.notJson': (status, what, tail) => `o gateway respondeu HTTP ${status} com ${what}, não JSON${tail}`,
  'gw.shape': (lookup, issues, tail) => `a resposta do gateway não segue ${lookup ? 'a consulta documentada' : 'a interface'}: ${issues}${tail}`,
  'gw.emptyBody': 'um corpo vazio',
  'gw.html': 'uma página HTML',
  'gw.bodyOfType': (type) => `um corpo do tipo ${type}`,
  'gw.notJsonBody': 'um corpo que não é JSON',
  'advice.cashin': 'consulte a cobrança no gateway antes de criar outra',
  'advice.cashout': 'confira o saque no gateway antes de enviá-lo de novo',
  // ── common endings ──
  'common.nothingSent': 'nada foi enviado',
  'common.nothingChanged': 'nada foi alterado',
  'common.nothingShown': 'nada foi mostrado',
  'common.nothingDone': 'nada foi feito',
  // ── settings and profiles (src/config/settings.ts) ──
  'settings.notJson': (file) => `o arquivo de configuração ${file} não é um JSON válido; corrija-o ou apague-o`,
  'settings.shape': (file, path, want, kind) => `o arquivo de configuração ${file}: ${path} deve ser ${want}, não ${kind}; corrija-o (ou defina de novo com paycli config set)`,
  'settings.configKey': (key, profile) => `a chave de configuração ${key} (perfil ${profile})`,
  'settings.oneOf': (what, choices, value) => `${what} deve ser um destes: ${choices}; veio "${value}"`,
  'settings.unknownProfile': (name, source, near, action) => `perfil desconhecido "${name}" (${source})${near ? `: você quis dizer ${near}?` : ''}; ${action}`,
  'settings.configuredProfiles': (names) => `perfis configurados: ${names} (paycli config profiles)`,
  'settings.noProfiles': 'nenhum perfil configurado: crie um com `paycli config set base-url <url> --profile <nome> --create`',
  'settings.noBaseUrl': (profile, op) => `o perfil "${profile}" não tem URL base${op === 'lookup' ? '' : ` para ${op === 'cashin' ? 'cobranças' : 'saques'}`}; nada foi enviado`,
  'settings.noBaseUrlHint': (command) => `defina uma com \`${command}\`, escolha outro perfil (paycli config profiles) ou passe --base-url sandbox`,
  'settings.baseUrlNotAbsolute': (url) => `a URL base "${url}" não é uma URL absoluta; exemplo: https://api.gateway.example`,
  'settings.baseUrlHttps': (url) => `a URL base "${url}" deve começar com https://`,
  'settings.baseUrlQuery': (url, query) => `a URL base "${url}" tem ${query ? 'uma query' : 'um fragmento'}: uma URL base é um esquema, um host e, opcionalmente, um caminho`,
  'settings.baseUrlQueryHint': 'exemplo: https://api.gateway.example/api/v2',
  'settings.baseUrlHttp': (url) => `a URL base "${url}" usa http sem TLS: a chave de API viajaria às claras`,
  'settings.baseUrlHttpHint': 'use https://, ou passe --allow-insecure-http se é isso mesmo que você quer',
  'settings.keychainUnreadable': (profile, keychain, why) => `a chave de API do perfil "${profile}" está em ${keychain}, que não pode ser lido (${why}); nada foi enviado`,
  'settings.keychainHint': (command) => `desbloqueie o chaveiro, defina PAYCLI_API_KEY ou rode \`${command}\` de novo`,
  'settings.noKeyLoopback': (profile, host) => `sem chave de API para o perfil "${profile}": enviando para ${host} (loopback) sem credencial`,
  'settings.noKey': (profile) => `sem chave de API para o perfil "${profile}": nada foi enviado`,
  'settings.noKeyHint': (command) => `rode \`${command}\` ou defina PAYCLI_API_KEY`,
  // ── errors every command may end with (src/core/errors.ts, src/cli/action.ts) ──
  'error.needsAttention': 'criado, mas precisa de atenção',
  'error.interrupted': 'interrompido',
  'error.interruptedNothingSent': 'interrompido: nada foi enviado',
  'error.internal': (message) => `erro interno: ${message} (um bug no paycli; rode com --verbose para ver os detalhes)`,
  'error.stdoutLost': (created, why) => `o gateway criou ${created}, mas o resultado não pôde ser escrito no stdout (${why}); veja \`paycli history\``,
  'error.stdoutFailed': (why) => `o resultado não pôde ser escrito no stdout (${why})`,
  // ── one payment (src/payment/request.ts, src/payment/pipeline.ts, src/payment/input.ts) ──
  'pay.noun': (kind) => (kind === 'cashin' ? 'cobrança' : 'saque'),
  'pay.batchOnly': (flag) => `${flag} é para lotes (com --batch <arquivo>); nada foi enviado`,
  'pay.sandboxNotice': 'sandbox: isto roda no sandbox embutido; nenhum dinheiro se move. Configure um gateway com `paycli config set base-url <url>` e `paycli auth login`.',
  'pay.notRegularFile': 'não é um arquivo comum',
  'pay.cannotWrite': (code) => `não pode ser escrito (${code})`,
  'pay.cannotCreate': (why) => `não pode ser criado (${why})`,
  'pay.noSuchFolder': 'a pasta não existe',
  'pay.fileProblem': (flag, file, problem) => `${flag}: ${file} ${problem}; nada foi enviado`,
  'pay.dryRunNoKey': (profile) => `sem chave de API para o perfil "${profile}": uma execução de verdade pararia aqui (saída 3)`,
  'pay.dryRun': (sandbox) => `simulação (dry run): nada foi enviado${sandbox ? ' (a requisição iria para o sandbox embutido)' : ''}`,
  'pay.reusedOrder': (ref, kind) => `enviado com a referência do pedido ${ref}, a de ${kind === 'cashin' ? 'uma cobrança idêntica anterior' : 'um saque idêntico anterior'} que o gateway nunca recebeu: o gateway vê um pedido só, não importa quantas tentativas`,
  'pay.needsYes': (kind) => `${kind === 'cashin' ? 'uma cobrança' : 'um saque'} movimenta dinheiro: passe --yes para confirmar quando não estiver num terminal; nada foi enviado`,
  'pay.needsYesHint': 'adicione --yes (ou confira a requisição antes com --dry-run)',
  'pay.notConfirmed': (kind) => `${kind === 'cashin' ? 'cobrança não confirmada' : 'saque não confirmado'}; nada foi enviado`,
  'pay.allowDuplicate': (kind, id, reais, time, outcome, entry) => `--allow-duplicate: enviando, embora ${kind === 'cashin' ? 'uma cobrança idêntica' : 'um saque idêntico'} (entrada ${id}, ${reais}, ${time}, resultado ${outcome}) esteja no registro local; registrado como entrada ${entry}`,
  'pay.waiting': (kind, seconds) => `${kind === 'cashin' ? 'a cobrança foi enviada' : 'o saque foi enviado'}: esperando a resposta do gateway (até ${seconds} s), o único jeito de saber se foi criado. Ctrl-C de novo para parar de esperar; o resultado fica desconhecido e o \`paycli reconcile\` o resolve depois`,
  'pay.askingFirst': (kind, id, order) => `${kind === 'cashin' ? 'uma cobrança idêntica' : 'um saque idêntico'} (entrada ${id}) tem resultado desconhecido: perguntando antes ao gateway pelo pedido ${order}`,
  'pay.none': '(nenhuma)',
  'pay.askedNow': (message, why) => `${message}. Perguntado agora: ${why}; nada foi enviado`,
  'pay.askAfter': (when) => `rode o mesmo comando, ou \`paycli reconcile\`, depois de ${when}`,
  'pay.notSentAfterDeadline': (message, ref, kind, entry) => `${message}; perguntado pela referência do pedido ${ref} depois do prazo e do settle-after, o gateway não tem ${kind === 'cashin' ? 'essa cobrança' : 'esse saque'}: registrado como não enviado (entrada ${entry})`,
  'pay.sendAgainHint': 'para enviar de novo, rode o mesmo comando: vai com a mesma referência do pedido',
  'pay.unknownRecorded': (entry, kind, when) => `o resultado é desconhecido e ficou registrado assim (entrada ${entry}; ${kind === 'cashin' ? 'uma cobrança idêntica é recusada' : 'um saque idêntico é recusado'} até ser resolvido)${when ? `; o gateway pode ser consultado a partir de ${when}: \`paycli reconcile\`` : ''}`,
  'pay.reconcileHint': (when, ref) => `rode \`paycli reconcile\`${when ? ` depois de ${when}` : ''}: ele pergunta ao gateway pela referência do pedido ${ref} e registra o que encontrar`,
  'input.cannotRead': (name, why) => `--input: não foi possível ler ${name} (${why}); nada foi enviado`,
  'input.tooLarge': (name, max) => `--input: ${name} tem mais de ${max} bytes (1 MiB), o limite de um documento de requisição; nada foi enviado`,
  'input.notJson': (name, why) => `--input: ${name} não é um JSON válido: ${why}; nada foi enviado`,
  'input.notObject': (name) => `--input: o JSON deve ser um objeto com os nomes de campo da interface, p. ex. {"value": 1000, ...} (${name} não é); nada foi enviado`,
  'input.ignoring': (n, list) => `--input: ignorando ${n > 1 ? 'campos que a interface não define' : 'um campo que a interface não define'}: ${list}`,
  'input.valueAndAmount': 'use --value (centavos) ou --amount (reais), não os dois; nada foi enviado',
  'input.amount': (problem) => `--amount: ${problem}; nada foi enviado`,
  // ── the ledger's guards (src/ledger/rules.ts) ──
  'rules.orderOk': (ref, id, tx, reais, time, note) => `a referência do pedido ${ref} já foi criada neste gateway (entrada ${id}, transação ${tx}, ${reais}, ${time}); recusado para não pagar duas vezes${note}`,
  'rules.orderOkHint': 'um pagamento novo precisa de uma referência de pedido nova',
  'rules.orderUnknown': (ref, id, reais, time, note) => `a referência do pedido ${ref} já está no registro local com resultado ainda desconhecido (entrada ${id}, ${reais}, ${time}): pode estar a caminho; recusado até ser resolvido${note}`,
  'rules.orderUnknownHint': 'o `paycli reconcile` resolve isso perguntando ao gateway (depois que o prazo passar e a execução que o enviou terminar)',
  'rules.aheadOfClock': (min) => `${min} min à frente do relógio desta máquina`,
  'rules.ago': (n, unit) => `há ${n} ${unit === 'days' ? 'dias' : unit}`,
  'rules.window': (min) => `mesmo gateway, chave PIX e valor em até ${min} min, chave de configuração duplicate-window`,
  'rules.windowOff': 'mesmo gateway, chave PIX e valor; a chave de configuração duplicate-window é 0, então só um resultado desconhecido bloqueia',
  'rules.dupWhat': (reais, key, sandbox, time, ago, id) => `${reais} para a chave PIX ${key}${sandbox ? ' (sandbox)' : ''}, em ${time} (${ago}), entrada ${id}`,
  'rules.dupOk': (what, tx) => `um saque idêntico já foi enviado: ${what}, transação ${tx}, resultado ok; recusado para não pagar duas vezes; nada foi enviado`,
  'rules.dupOkHint': (window) => `se quer mesmo pagar de novo, adicione --allow-duplicate (idêntico: ${window}; veja \`paycli history\`)`,
  'rules.unknownCompleted': 'o resultado é desconhecido (não voltou resposta válida: tempo esgotado, conexão caída, erro do gateway ou Ctrl-C depois do envio)',
  'rules.unknownKilled': 'o resultado é desconhecido (o paycli foi encerrado antes da resposta, ou ainda está sendo enviado)',
  'rules.dupUnknown': (what, why) => `um saque idêntico pode já ter sido pago: ${what}; ${why}; recusado até esse resultado ser resolvido, para não pagar duas vezes; nada foi enviado`,
  'rules.dupUnknownHint': (id) => `confira esse saque no gateway antes e registre o que aconteceu: \`paycli history resolve ${id} --outcome ok\` (foi pago) ou \`--outcome not_sent\` (não foi); ou adicione --allow-duplicate para enviar mesmo assim`,
  // ── prompts (src/payment/prompts.ts): field labels by interface path ──
  'field.value': 'Valor em centavos',
  'field.payerName': 'Nome do pagador',
  'field.payerDocument': 'CPF ou CNPJ do pagador',
  'field.payerEmail': 'E-mail do pagador',
  'field.payerPhone': 'Telefone do pagador com DDD',
  'field.productName': 'Nome do produto',
  'field.productDescription': 'Descrição do produto',
  'field.postbackUrl': 'URL de postback',
  'field.splits': 'Splits',
  'field.orderId': 'Referência do pedido',
  'field.pixKeyType': 'Tipo de chave PIX',
  'field.pixKey': 'Chave PIX',
  'field.cpfCnpj': 'CPF ou CNPJ do dono da chave',
  'field.person.name': 'Nome do recebedor',
  'field.person.email': 'E-mail do recebedor',
  'field.person.phone': 'Telefone do recebedor com DDD',
  'prompt.amount': 'Valor em reais (p. ex. 15,50)',
  'prompt.amountSubject': 'Valor',
  'prompt.pixKey': (noun, example) => `Chave PIX, ${noun} (p. ex. ${example})`,
  'prompt.optional': (label) => `${label} (opcional, Enter para pular)`,
  'prompt.example': (label, example) => `${label} (p. ex. ${example})`,
  'prompt.centsShown': (reais, cents) => `${reais} (${cents} centavos)`,
  'prompt.splitsAgain': '  Informe os splits de novo.',
  'prompt.anotherSplit': 'Adicionar outro split?',
  'prompt.firstSplit': 'Adicionar um split (parte do valor para outro cliente)?',
  'prompt.split': (example) => `Split como clientId:centavos (p. ex. ${example})`,
  'prompt.confirmCashOut': 'Enviar este saque?',
  'prompt.yes': 'Sim',
  'prompt.no': 'Não',
  'prompt.yesNoError': (yes, no) => `Responda "${yes}" ou "${no}"`,
  // ── the summary before a cash-out is confirmed (src/cli/run/cashout.ts) ──
  'summary.gateway': 'Gateway',
  'summary.sandbox': 'SANDBOX - nenhum dinheiro se move',
  'summary.profile': (host, profile) => `${host} (perfil ${profile})`,
  'summary.amount': 'Valor',
  'summary.pixKey': 'Chave PIX',
  'summary.recipient': 'Recebedor',
  'summary.orderId': 'Pedido',
  // ── results (src/payment/format.ts) ──
  'result.cashinCreated': (sandbox) => `Cobrança criada${sandbox ? ' (sandbox: nenhum dinheiro se move)' : ''}`,
  'result.cashoutCreated': (sandbox) => `Saque criado${sandbox ? ' (sandbox: nenhum dinheiro se move)' : ''}`,
  'result.transactionId': 'ID da transação',
  'result.externalId': 'ID externo',
  'result.orderId': 'Pedido',
  'result.amount': 'Valor',
  'result.brcode': 'PIX copia e cola (BR Code):',
  'result.gross': 'Bruto',
  'result.fee': 'Tarifa',
  'result.net': 'Líquido',
  'result.status': 'Situação',
  'result.createdAt': 'Criado em',
  'result.kind.cashin': 'Cobrança',
  'result.kind.transfer': 'Saque (transferência)',
  'result.kind.other': (object) => (object ? `Transação (${object})` : 'Transação'),
  'result.method': 'Método',
  'result.endToEnd': 'ID fim a fim',
  'result.processedAt': 'Processado em',
  'result.code': (code) => `código ${code}`,
  'result.document': (doc) => `documento ${doc}`,
  'result.pixKey': (key) => `chave PIX ${key}`,
  'result.payer': 'Pagador',
  'result.payerBank': 'Banco do pagador',
  'result.recipient': 'Recebedor',
  'result.recipientBank': 'Banco do recebedor',
  'result.balance': 'Saldo',
  'result.retention': 'Retenção',
  'result.toAnticipate': 'A antecipar',
  'result.finalBalance': 'Saldo final',
  // ── help of ledger (src/cli/commands/ledger.ts) ──
  'help.ledger.description': 'o registro da equipe no PostgreSQL (chave de configuração ledger-url): cria ou atualiza o esquema, copia um registro local para ele',
  'help.ledger.after': `Com ledger-url definido (por perfil, ou PAYCLI_LEDGER_URL), toda máquina que paga registra num mesmo
banco PostgreSQL, e assim a proteção contra duplicidade, as referências de pedido e os lotes valem entre
máquinas. Os comandos de pagamento nunca mudam o esquema de um banco compartilhado: rode
\`paycli ledger migrate\` uma vez a cada nova versão do paycli.

Exemplos:
  $ paycli config set ledger-url postgres://payments@db.internal:5432/payments
  $ paycli config set ledger-password          # num terminal: pede a senha, sem mostrá-la
  $ paycli ledger migrate                      # saída 2 enquanto db.internal não responde; nada muda
  $ paycli ledger push                         # uma máquina nova não tem registro local: nada a enviar`,
  'help.ledger.migrate': 'cria o esquema do registro da equipe, ou o atualiza para esta versão do paycli',
  'help.ledger.migrate.after': `Aplica, em ordem e cada uma na sua própria transação, as versões de esquema que faltam ao registro
da equipe; duas máquinas migrando ao mesmo tempo aplicam cada uma uma só vez. Sai com 0 quando o
esquema está na versão deste paycli.

Exemplos:
  $ paycli ledger migrate                      # saída 2 sem ledger-url: diz qual chave definir
  $ PAYCLI_LEDGER_URL=postgres://admin@db.internal/payments paycli ledger migrate --json   # saída 2 enquanto db.internal não responde`,
  'help.ledger.push': 'copia o registro local desta máquina para o registro da equipe (as entradas que ele já tem são puladas)',
  'help.ledger.push.after': `As entradas são casadas pelo uuid: enviar duas vezes não acrescenta nada. Recusado (saída 2) enquanto
um paycli local ainda envia uma entrada. --json imprime {"entries": N, "added": M}.

Exemplos:
  $ paycli ledger push                         # saída 2 sem ledger-url: diz qual chave definir
  $ PAYCLI_LEDGER_URL=postgres://admin@db.internal/payments paycli ledger push --json   # {"entries": 0, "added": 0} numa máquina nova`,
  // ── help of auth, balance, status, reconcile, listen (src/cli/commands/) ──
  'help.auth.description': 'faz o login de um perfil no gateway: a chave de API é conferida e guardada no chaveiro do sistema',
  'help.auth.after': `Por perfil (--profile ou PAYCLI_PROFILE). login pede a chave de API sem mostrá-la (num terminal;
senão lê do stdin), confere com uma requisição que não move dinheiro (a consulta de saldo, a não ser
que o perfil tenha lookup off) e a guarda no chaveiro do sistema (Secret Service no Linux, Keychain
no macOS, Credential Manager no Windows), senão no arquivo de configuração (modo 0600), e diz onde.
PAYCLI_API_KEY, quando definida, tem precedência sobre a chave guardada. \`paycli config set api-key\`
continua sendo o jeito de guardar uma chave no arquivo de configuração por script.`,
  'help.example.keyedGateway': '# um gateway em 127.0.0.1:4010 que exige chave',
  'help.example.asksHidden': '# num terminal: pede a chave, sem mostrá-la',
  'help.example.asksItHidden': '# num terminal: pergunta, sem mostrar (ou lê o stdin)',
  'help.auth.login': 'pede a chave de API (sem mostrá-la; ou a lê do stdin), confere no gateway e a guarda no chaveiro (senão no arquivo de configuração)',
  'help.auth.noCheck': 'guarda a chave sem perguntar antes ao gateway (um gateway sem consulta de saldo)',
  'help.auth.status': 'mostra o perfil, o gateway, onde a chave está guardada, a chave mascarada e se o gateway a aceita',
  'help.auth.statusExit3': '# saída 3: sem chave de API para o perfil "default"',
  'help.auth.logout': 'remove a chave de API do perfil do chaveiro e do arquivo de configuração',
  'help.balance.description': 'mostra o saldo da conta no gateway (além da interface)',
  'help.balance.after': `Envia GET /transaction/get/balance (o saldo documentado da família de gateways, fora da
interface; outro caminho com a chave de configuração balance-path, outro host com lookup-base-url)
e mostra o saldo, a retenção, o valor a antecipar e o saldo final em reais.
--json imprime o documento do gateway como veio (centavos inteiros).`,
  'help.example.standaloneSandbox': '# o sandbox avulso em 127.0.0.1:4010',
  'help.balance.exit2': '# saída 2: o sandbox embutido não guarda saldo entre execuções',
  'help.status.description': 'consulta uma transação no gateway, pelo id ou pela referência do seu pedido (além da interface)',
  'help.status.argument': 'o id da transação no gateway (o que cashin/cashout imprimiu)',
  'help.status.orderId': 'consulta pela referência do pedido enviada como orderId',
  'help.status.after': `Envia GET /transaction/get/by/id/{transactionId} ou GET /transaction/get/by/orderId/{orderId}
(as consultas documentadas da família de gateways, fora da interface; outros caminhos por perfil com
as chaves de configuração status-path e status-by-order-path, outro host com lookup-base-url). Mostra
o tipo (cobrança ou saque), a situação, o valor em reais, o id fim a fim, a hora de processamento e
o pagador ou o recebedor. --json imprime o documento do gateway como veio. Uma consulta não muda
nada, então o paycli pergunta de novo (3 tentativas ao todo) depois de uma falha de rede ou de um
502/503/504. "Transaction not found" sai com 1; os outros códigos de saída, como em cashin/cashout.`,
  'help.status.exit1': '# saída 1: Transaction not found',
  'help.reconcile.description': 'resolve todo pagamento de resultado desconhecido perguntando ao gateway pela referência do pedido',
  'help.reconcile.since': 'só os pagamentos registrados desde então: 7d, 24h, 30m, ou uma data como 2026-11-01',
  'help.reconcile.after': `Para cada pagamento do registro local com resultado desconhecido (tempo esgotado, conexão caída,
um 5xx, Ctrl-C depois do envio), pergunta ao gateway pelo orderId (GET /transaction/get/by/orderId/{orderId},
com as configurações do perfil que o enviou): encontrado, fica registrado como criado (ok) com o id
de transação do gateway; "Transaction not found", como não enviado; senão continua desconhecido, e a
tabela diz por quê. Um pagamento sem referência de pedido não pode ser consultado: confira no gateway.
Sai com 0 quando nada fica desconhecido, 4 caso contrário.`,
  'help.listen.description': 'recebe postbacks (notificações de pagamento), imprime cada um e, se quiser, os repassa para a sua aplicação',
  'help.listen.port': 'porta em que escutar (0 = qualquer porta livre)',
  'help.listen.host': 'endereço em que escutar',
  'help.listen.forwardTo': 'também faz POST de cada notificação (mesmo corpo e cabeçalhos) para esta URL',
  'help.listen.secret': 'confere x-paycli-signature com este segredo; 401 quando não bate (env PAYCLI_POSTBACK_SECRET)',
  'help.listen.after': `Imprime "listening on <url>" no stderr quando está pronto, depois uma linha por notificação no
stdout (hora, transação, situação, valor), ou com --json o corpo exatamente como veio, um documento
JSON por linha. Responde 200; 400 para um corpo que não é um objeto JSON, 401 para uma assinatura
errada (com --secret), 413 acima de 1 MiB. Ctrl-C ou SIGTERM o encerra (saída 0).`,
  // ── help of history (src/cli/commands/history.ts) ──
  'help.history.description': 'lista as cobranças e os saques que esta máquina enviou (mais novos primeiro), do registro (o registro da equipe quando ledger-url está definido)',
  'help.history.since': 'só os pagamentos registrados desde: uma duração para trás (30m, 24h, 7d, 2w) ou uma data/hora (2026-11-01, UTC)',
  'help.history.until': 'só os pagamentos registrados antes (uma data sozinha inclui o dia inteiro)',
  'help.history.kind': 'só cobranças (cashin) ou saques (cashout)',
  'help.history.outcome': 'só os pagamentos com este resultado',
  'help.history.orderId': 'só os pagamentos enviados com esta referência de pedido',
  'help.history.limit': 'mostra no máximo este número de entradas (ou all, todas)',
  'help.history.format': 'saída: table (tabela para pessoas), json, ou csv para planilhas (--json = --format json)',
  'help.history.after': `A opção global --profile mostra só os pagamentos enviados com aquele perfil.

Cada entrada: número, hora (UTC), quem a enviou (BY, usuario@host, quando a largura permite), tipo
(* = o sandbox embutido), valor, resultado e a chave PIX (saque) ou o pagador (cobrança). Resultados: ok, refused (recusado), not_sent (não enviado) ou
unknown (desconhecido: não voltou resposta válida, ou o paycli parou depois do envio; confira no
gateway e registre o que aconteceu com \`paycli history resolve\`). Um saque idêntico é recusado
enquanto o resultado de um anterior for desconhecido.

--format json e csv trazem todos os campos (referência do pedido, id da transação, gateway,
mensagem, resolução, o usuário, o host e a versão do paycli que a enviou); o csv tem uma linha de cabeçalho e o valor em centavos e como 1234,56.`,
  'help.history.resolve': 'registra o resultado de uma entrada de resultado desconhecido, depois de conferir no gateway',
  'help.history.resolve.entry': 'o número da entrada, como o `paycli history` mostra',
  'help.history.resolve.outcome': 'obrigatório: o que o gateway diz: ok (foi pago), not_sent (nunca recebeu), refused (recusou)',
  'help.history.resolve.note': 'o motivo, para o registro (p. ex. "não está no painel do gateway")',
  'help.history.resolve.force': 'resolve mesmo que a execução do paycli que o enviou ainda exista (rodando ou parada)',
  'help.history.resolve.after': `ok continua recusando um saque idêntico dentro da duplicate-window a partir do envio; not_sent
e refused deixam enviá-lo de novo. Só uma entrada de resultado desconhecido pode ser resolvida.`,
  'help.history.resolve.exit2': '# saída 2 a menos que a entrada 42 seja desconhecida',
  // ── help of sandbox (src/cli/commands/sandbox.ts) ──
  'help.sandbox.description': 'roda o gateway sandbox embutido avulso (nenhum dinheiro se move), para outros programas e testes',
  'help.sandbox.port': 'porta em que escutar (0 = qualquer porta livre)',
  'help.sandbox.host': 'endereço em que escutar',
  'help.sandbox.apiKey': 'exige esta chave em toda requisição: "Authorization: Bearer <chave>" (maiúsculas ou minúsculas) ou a chave pura; senão 401 (subcomandos: enviam a chave)',
  'help.sandbox.noAcquirer': 'responde toda cobrança com 400 "no active acquirer"',
  'help.sandbox.postbackSecret': 'assina todo postback (x-paycli-signature, HMAC-SHA256); um recurso do sandbox (env PAYCLI_POSTBACK_SECRET)',
  'help.sandbox.autoPay': 'paga sozinho toda cobrança este número de segundos depois de criada',
  'help.sandbox.webhookUrl': 'também envia para cá todo postback de toda transação (o webhook da conta no gateway)',
  'help.sandbox.strict': 'também confere formatos: dígitos verificadores de CPF/CNPJ, chaves PIX contra o tipo, telefones, e-mails; orderId obrigatório nos saques',
  'help.sandbox.dropAfterCreate': 'cria a n-ésima transação (a partir de 1; várias: 2,5) e derruba a conexão antes de responder',
  'help.sandbox.retryFor': 'tenta cada postback até a entrega por este tempo (ms, s, m, h, d: 90s, 30m, 24h)',
  'help.sandbox.retrySchedule': 'esperas entre tentativas: standard (10 s dobrando até 1 h) ou fast (0,1 s dobrando até 2 s, para testes)',
  'help.sandbox.dataDir': 'guarda os eventos de postback nesta pasta entre reinícios (padrão: <pasta de dados>/sandbox)',
  'help.sandbox.keepEvents': 'máximo de eventos guardados; passando disso, os entregues mais antigos saem primeiro',
  'help.sandbox.after': `O sandbox responde como o gateway: POST /transaction/qrcode/cashin, POST /transaction/cashout,
GET /transaction/get/by/id/<id>, GET /transaction/get/by/orderId/<orderId> e
GET /transaction/get/balance. Confere o que o gateway documenta (campos obrigatórios e seus tipos
JSON: 400 "Validation Failed - <field> is required"); --strict acrescenta as regras de formato.
Imprime "listening on <url>" no stderr quando está pronto ({"listening": "<url>"} com --json).

Fora da interface, um sandbox rodando aceita mudanças de estado em
POST /_sandbox/transactions/<id>/<pay|fail|cancel|refund|infraction> (o que os subcomandos chamam):
  created → paid | failed | canceled, paid → refund | infraction, infraction → refund.
Toda mudança de estado, a criação inclusive, faz POST de um postback para o postbackUrl da transação
(cobrança ou saque) e para --webhook-url. Cada postback é um evento (evt_<n>), guardado na pasta de
dados entre reinícios, tentado de novo até um 2xx durante --retry-for (esperas de 10 s dobrando até
1 h, com variação; 10 s de tempo limite por tentativa, nunca duas abertas ao mesmo tempo), em ordem
por transação e URL; toda tentativa leva x-paycli-event-id e x-paycli-delivery-attempt.
\`paycli sandbox events\` lista os eventos, \`paycli sandbox resend\` os envia de novo. A assinatura
é um recurso do sandbox: um gateway de verdade pode não assinar nada.`,
  'help.sandbox.control.pay': 'marca uma transação pendente como paga',
  'help.sandbox.control.fail': 'marca uma transação pendente como falha',
  'help.sandbox.control.cancel': 'marca uma transação pendente como cancelada',
  'help.sandbox.control.refund': 'estorna uma transação paga, ou uma sob infração (postback com status "refund")',
  'help.sandbox.control.infraction': 'abre um relato de infração (MED) numa transação paga (postback com status "infraction")',
  'help.sandbox.control.description': (what) => `${what} num \`paycli sandbox\` rodando; os postbacks são enviados`,
  'help.sandbox.sandboxUrl': 'endereço do sandbox rodando',
  'help.sandbox.controlApiKey': 'a chave com que o sandbox foi iniciado (--api-key)',
  'help.sandbox.control.after': (name) => `Um sandbox iniciado com --api-key quer a mesma chave aqui: paycli sandbox ${name} <id> --api-key <chave>.

Códigos de saída: 0 feito; 1 o sandbox recusou (id desconhecido, transição não permitida); 2 uso;
3 o sandbox quer --api-key; 4 nenhum sandbox responde em --sandbox-url.`,
  'help.sandbox.ping': 'faz um `paycli sandbox` rodando enviar o ping {"test": true} para uma URL de postback (padrão: a --webhook-url dele)',
  'help.sandbox.ping.after': `O sandbox envia um POST com o corpo {"test": true} (assinado quando roda com
--postback-secret), como um gateway faz para conferir uma URL de webhook nova, e mostra a resposta.

Códigos de saída: 0 entregue (2xx); 1 não entregue (outro status, sem resposta); 2 uso;
3 o sandbox quer --api-key; 4 nenhum sandbox responde em --sandbox-url.`,
  'help.sandbox.events': 'lista os eventos de postback de um `paycli sandbox` rodando, mais novos primeiro, com as tentativas',
  'help.sandbox.events.failed': 'só os eventos não entregues (desistidos, ou ainda em novas tentativas)',
  'help.sandbox.events.transaction': 'só os eventos desta transação',
  'help.sandbox.events.limit': 'mostra no máximo este número (padrão 100)',
  'help.sandbox.events.after': `Uma linha por evento: id, transação, status, URL (sem a query), tentativas e o estado:
delivered (entregue, quando), pending (pendente: próxima tentativa, último resultado) ou gave up
(desistido, depois de --retry-for). Com --json, um array JSON de {id, transactionId, object, status,
url, state, attempts, createdAt, deliveredAt, nextAttemptAt, giveUpAt, lastAttempts, body}.

Códigos de saída: 0 listado (também quando não há nenhum); 2 uso; 3 o sandbox quer --api-key;
4 nenhum sandbox responde em --sandbox-url.`,
  'help.sandbox.resend': 'faz um `paycli sandbox` rodando enviar um evento de novo (entregue ou não), ou todos os não entregues com --failed',
  'help.sandbox.resend.failed': 'todo evento não entregue (desistido, ou ainda em novas tentativas): enviado agora',
  'help.sandbox.resend.after': `O evento volta a pendente, para agora, com um --retry-for novo e a primeira espera; o corpo é o
mesmo, o x-paycli-delivery-attempt continua contando. É enviado em ordem com os outros eventos da
transação para aquela URL. Use depois de corrigir um tratador de postback.

Códigos de saída: 0 na fila (também quando não sobrou nada para reenviar); 1 id de evento
desconhecido; 2 uso; 3 o sandbox quer --api-key; 4 nenhum sandbox responde em --sandbox-url.`,
  // ── help of cashin and cashout (src/cli/commands/cashin.ts, cashout.ts) ──
  'help.cashin.description': 'cria uma cobrança PIX: o gateway responde com um BR Code (QR code) para o pagador pagar',
  'help.value': 'valor em centavos (1000 = R$ 10,00)',
  'help.amount': 'valor em reais em vez de --value: 15, 15,50, 1.234,56',
  'help.cashin.payerName': 'nome do pagador',
  'help.cashin.payerDocument': 'CPF ou CNPJ do pagador (com ou sem pontuação; CNPJ alfanumérico também)',
  'help.cashin.payerEmail': 'e-mail do pagador',
  'help.cashin.payerPhone': 'telefone do pagador com DDD, p. ex. 11987654321',
  'help.cashin.productName': 'nome do produto ou serviço',
  'help.cashin.productDescription': 'descrição do produto ou serviço',
  'help.cashin.postbackUrl': 'URL que recebe a notificação quando a cobrança muda de estado',
  'help.cashin.split': 'dá parte do valor a outro cliente (pode repetir)',
  'help.cashin.orderId': 'a referência do seu pedido, enviada como orderId (padrão: um paycli-<ULID> novo; chave de configuração order-id)',
  'help.input': 'lê o corpo da requisição (nomes de campo da interface) de um arquivo JSON, ou - para o stdin; as opções têm precedência',
  'help.dryRun': 'valida e imprime a requisição que seria enviada, sem enviá-la',
  'help.cashin.qr': 'desenha o QR code no terminal mesmo quando o stdout não é um terminal',
  'help.cashin.noQr': 'nunca desenha o QR code',
  'help.cashin.qrFile': 'grava a imagem do QR code (PNG) neste arquivo',
  'help.cashin.batch': 'cria uma cobrança por linha de um arquivo CSV ou JSON Lines, ou - para o stdin (docs/batch-runs.md)',
  'help.batchFormat': 'formato do arquivo de --batch quando o nome não diz: csv ou jsonl',
  'help.cashin.qrDir': 'com --batch: grava a imagem (PNG) de cada QR code nesta pasta',
  'help.concurrency': 'com --batch: requisições em andamento ao mesmo tempo, 1-32 (padrão 4)',
  'help.rate': 'com --batch: inicia no máximo este número de requisições por segundo',
  'help.results': 'com --batch: grava os resultados aqui, .csv ou .jsonl (padrão <arquivo>.results.csv; nunca sobrescrito)',
  'help.retryRefused': 'com --batch: envia de novo as linhas que uma execução anterior do mesmo arquivo viu recusadas',
  'help.wait': 'com --batch: quando outra execução do mesmo arquivo no mesmo gateway ainda está rodando (ou parada), espera ela terminar e continua (padrão: saída 2, batch_running)',
  'help.cashin.allowDuplicate': 'com --batch: permite duas linhas idênticas',
  'help.cashin.yes': 'com --batch: não pede confirmação (obrigatório fora de um terminal)',
  'help.cashin.promptsComment': '# num terminal: pergunta cada campo que faltar',
  'help.cashout.description': 'envia um saque PIX (um pagamento) para uma chave PIX; pede confirmação, ou --yes',
  'help.cashout.pixKeyType': 'tipo da chave PIX (também os nomes da interface e do DICT: TELEFONE, RANDOM_KEY, EVP, PHONE, ou 0-4)',
  'help.cashout.pixKey': 'a chave PIX de destino',
  'help.cashout.cpfCnpj': 'CPF ou CNPJ do dono da chave (opcional)',
  'help.cashout.personName': 'nome do recebedor',
  'help.cashout.personEmail': 'e-mail do recebedor',
  'help.cashout.personPhone': 'telefone do recebedor com DDD, p. ex. 11987654321',
  'help.cashout.orderId': 'a referência do seu pedido, enviada como orderId (padrão: um paycli-<ULID> novo; chave de configuração order-id); o gateway é consultado antes, então repetir não envia nada',
  'help.cashout.postbackUrl': 'URL que o gateway notifica quando o saque muda de estado (postbackUrl; além da interface)',
  'help.cashout.yes': 'não pede confirmação (obrigatório fora de um terminal)',
  'help.cashout.allowDuplicate': 'envia mesmo que um saque idêntico esteja no registro local (ok dentro da duplicate-window, ou com resultado desconhecido); fica registrado assim (com --batch: linhas idênticas também)',
  'help.cashout.batch': 'envia um saque por linha de um arquivo CSV ou JSON Lines, ou - para o stdin (docs/batch-runs.md)',
  'help.cashout.confirmComment': '# num terminal: pede confirmação',
  // ── help of brcode (src/cli/commands/brcode.ts) ──
  'help.brcode.description': 'inspeciona, desenha e cria BR Codes PIX ("copia e cola" / conteúdo de QR code)',
  'help.brcode.after': `Cada verificação cita a regra e de onde ela vem (Banco Central, Manual do BR Code; Manual de
Padrões para Iniciação do Pix; EMV QRCPS). Erros tornam o código inválido (saída 2); avisos
(limites de campo, estrutura) são listados, já que alguns bancos recusam esses códigos.`,
  'help.brcode.decode': 'decodifica um BR Code (texto, - para o stdin, ou --image) e lista cada problema com a regra',
  'help.brcode.image': 'lê o BR Code do QR code de uma imagem PNG',
  'help.brcode.decode.after': `Imprime cada campo pelo nome: estático (uma chave PIX) ou dinâmico (uma URL de location, cujo
conteúdo traz o valor), chave ou URL, nome e cidade do recebedor, valor em reais, txid, informação
adicional, a URL de recorrência do Pix Automático e os objetos que não conhece, como foram lidos.
--json para scripts.

Códigos de saída: 0 código válido (pode listar avisos); 2 código inválido (problemas listados),
nenhum QR code na imagem, ou nada para decodificar.`,
  'help.brcode.qr': 'desenha um BR Code como QR code no terminal, ou o grava como PNG ou SVG',
  'help.brcode.png': 'grava o QR code como imagem PNG',
  'help.brcode.svg': 'grava o QR code como imagem SVG',
  'help.brcode.qr.after': `O código é conferido antes: um inválido não é desenhado (saída 2). As imagens têm a margem de
quatro módulos que os leitores precisam. Num terminal mais estreito que o código nada é desenhado
(use --png).`,
  'help.brcode.create': 'cria um BR Code estático para a própria chave PIX do recebedor, impresso e desenhado',
  'help.brcode.key': 'chave PIX que recebe: CPF, CNPJ, telefone +55, e-mail ou chave aleatória',
  'help.brcode.keyType': (names) => `o tipo de --key, necessário quando 11 dígitos puros são ao mesmo tempo um CPF e um celular: ${names}`,
  'help.brcode.value': 'valor fixo em centavos (1000 = R$ 10,00); sem ele, o pagador digita o valor',
  'help.brcode.amount': 'valor fixo em reais em vez de --value: 15, 15,50, 1.234,56',
  'help.brcode.name': 'nome do recebedor, no máximo 25 caracteres (os acentos caem)',
  'help.brcode.city': 'cidade do recebedor, no máximo 15 caracteres (os acentos caem)',
  'help.brcode.txid': 'identificador: 1-25 letras e dígitos (padrão *** = nenhum)',
  'help.brcode.info': 'informação adicional mostrada ao pagador',
  'help.brcode.alsoPng': 'também grava o QR code como imagem PNG',
  'help.brcode.create.after': `O código é estático (sem o objeto de ponto de iniciação, como no exemplo do manual do Banco
Central): pode ser pago mais de uma vez. Com as entradas do manual, sai idêntico byte a byte ao
exemplo do manual. O tipo de --key vem da forma dela; 11 dígitos puros que são ao mesmo tempo um
CPF válido e um celular válido precisam de --key-type.`,
  'help.brcode.sayWhich': '# CPF e celular ao mesmo tempo: diga qual',
  'help.brcode.ambiguous': '# saída 2: ambíguo sem --key-type',
  // ── help of config and completion ──
  'help.config.description': 'lê e altera configurações, por perfil (--profile ou PAYCLI_PROFILE)',
  'help.config.keys': 'Chaves:',
  'help.config.headerKey': 'um cabeçalho fixo extra enviado em toda requisição (um segredo, como api-key)',
  'help.config.after': `Segredos (api-key, todo header.<Nome>, uma senha numa URL) aparecem mascarados em get/list e
ocultados em todo o resto. Sem valor, set pede um segredo sem mostrá-lo, ou o lê do stdin.`,
  'help.config.set': 'define uma chave; um segredo (api-key, header.<Nome>) sem valor é lido de uma pergunta sem eco ou do stdin',
  'help.config.create': 'cria o perfil de --profile quando ainda não existe (senão um erro de digitação é saída 2, nada alterado)',
  'help.config.get': 'imprime uma chave (segredos mascarados)',
  'help.config.unset': 'remove uma chave',
  'help.config.list': 'lista as chaves do perfil (segredos mascarados)',
  'help.config.profiles': 'lista os perfis configurados, com o host do gateway para onde cada um envia',
  'help.config.path': 'imprime o caminho do arquivo de configuração',
  'help.config.asksComment': '# num terminal: pergunta, sem mostrar',
  'help.completion.description': 'imprime o script de completação do shell para bash, zsh ou fish',
  'help.completion.shell': 'o shell',
  'help.completion.after': `Completa comandos, opções, nomes de --pix-key-type, chaves de configuração, caminhos de arquivo e
nomes de perfil. Completar comandos e opções não roda nada além do shell. Rode a linha de instalação
de novo depois de atualizar o paycli.

Instalação:
  bash  com bash-completion (carregado no primeiro uso):
          mkdir -p ~/.local/share/bash-completion/completions
          paycli completion bash > ~/.local/share/bash-completion/completions/paycli
        sem bash-completion:
          paycli completion bash > ~/.paycli.bash && echo 'source ~/.paycli.bash' >> ~/.bashrc
  zsh   numa pasta de $fpath:
          mkdir -p ~/.zfunc && paycli completion zsh > ~/.zfunc/_paycli
        e no ~/.zshrc, antes de compinit:
          fpath=(~/.zfunc $fpath); autoload -Uz compinit && compinit
  fish  paycli completion fish > ~/.config/fish/completions/paycli.fish

Depois abra um shell novo.`,
  // ── config keys (src/config/keys.ts), as `paycli config --help` lists them ──
  'configKey.base-url': 'URL base do gateway para as duas operações, ou "sandbox" (padrão: sandbox)',
  'configKey.cashin-base-url': 'URL base só para cobranças (gateways que as atendem em outro host)',
  'configKey.cashout-base-url': 'URL base só para saques',
  'configKey.api-key': 'a chave de API do gateway, enviada como "Authorization: Bearer <chave>"',
  'configKey.api-key-store': 'keychain: a chave de API está no chaveiro do sistema (definida por paycli auth login; removida por auth logout)',
  'configKey.auth-header': 'envia a chave de API pura neste cabeçalho em vez de Authorization: Bearer',
  'configKey.allow-insecure-http': 'true: este perfil pode enviar para uma URL base http:// sem TLS fora do loopback (definida com base-url e --allow-insecure-http)',
  'configKey.lang': 'idioma das mensagens e da ajuda: pt-BR ou en (padrão: LC_ALL/LC_MESSAGES/LANG; --lang tem precedência)',
  'configKey.timeout': 'tempo limite da requisição em milissegundos (padrão 30000)',
  'configKey.ledger-url': 'postgres://USUARIO@HOST:PORTA/BANCO: registra os pagamentos neste registro da equipe em vez do local (PAYCLI_LEDGER_URL tem precedência)',
  'configKey.ledger-password': 'a senha do registro da equipe quando ledger-url não traz uma (depois PGPASSWORD, depois ~/.pgpass)',
  'configKey.settle-after': 'por quanto tempo depois do prazo de um pagamento um "não encontrado" numa consulta ainda não prova nada (padrão 2m; p. ex. 90s, 5m)',
  'configKey.duplicate-window': 'minutos em que um saque idêntico é recusado (padrão 10; 0 = desligado; um resultado desconhecido bloqueia até ser resolvido)',
  'configKey.order-id': 'auto (padrão): dá a todo pagamento sem --order-id uma referência paycli-<ULID>; off: envia orderId só quando informado',
  'configKey.lookup': 'auto (padrão): pergunta ao gateway pelo orderId antes de um saque e depois de um resultado desconhecido; off: nunca',
  'configKey.lookup-base-url': 'URL base para status, balance e consultas (padrão: base-url)',
  'configKey.status-path': (d) => `caminho da consulta por id de transação (padrão ${d})`,
  'configKey.status-by-order-path': (d) => `caminho da consulta por referência do pedido (padrão ${d})`,
  'configKey.balance-path': (d) => `caminho do saldo (padrão ${d})`,
  'help.history.by': 'só os pagamentos enviados por este usuário do sistema neste host (ou só o usuário, ou @host)',
  // ── the manual page (src/cli/man.ts) ──
  'man.userCommands': 'Comandos do usuário',
  'man.name': 'NOME',
  'man.synopsis': 'SINOPSE',
  'man.description': 'DESCRIÇÃO',
  'man.globalOptions': 'OPÇÕES GLOBAIS',
  'man.commands': 'COMANDOS',
  'man.exitStatus': 'STATUS DE SAÍDA',
  'man.notes': 'NOTAS',
  'man.seeAlso': 'VEJA TAMBÉM',
  'man.synopsisOptions': '.B paycli\n[\\fIopções globais\\fR] \\fIcomando\\fR [\\fIopções\\fR]',
  'man.synopsisHelp': '.br\n.B paycli help\n[\\fIcomando\\fR [\\fIsubcomando\\fR]]',
  'man.everyCommand': '.PP\nTodo comando mostra a ajuda com \\fB\\-\\-help\\fR, ou \\fBpaycli help\\fR \\fIcomando\\fR; esta página reúne todas.',
  'man.beforeOrAfter': 'Aceitas antes ou depois do nome do comando.',
  'man.andGlobal': 'e as opções globais (OPÇÕES GLOBAIS).',
  'man.seeAlsoText': 'README.md do paycli: instalação e exemplos do dia a dia (seção "Em português"); docs/ no repositório: cada comando explicado, o contrato do gateway, a arquitetura (em inglês).',
  // ── batch runs (src/cli/batch/) ──
  'batch.count': (n, kind) => `${n} ${kind === 'cashin' ? `cobrança${n === 1 ? '' : 's'}` : `saque${n === 1 ? '' : 's'}`}`,
  'batch.rows': (n) => `${n} linha${n === 1 ? '' : 's'}`,
  'batch.sandboxGateway': 'SANDBOX (embutido; nenhum dinheiro se move)',
  'batch.summary.file': (name, rows, sha) => `Arquivo      ${name} (${rows}, sha256 ${sha}…)`,
  'batch.summary.toSend': (what, total) => `A enviar     ${what}, ${total} no total`,
  'batch.summary.largest': (reais, row) => `Maior        ${reais} (linha ${row})`,
  'batch.summary.alreadyOk': (rows) => `Já pagas     ${rows} (uma execução anterior; puladas)`,
  'batch.summary.refused': (rows) => `Recusadas    ${rows} por uma execução anterior (puladas; --retry-refused as envia de novo)`,
  'batch.summary.unknown': (rows) => `Desconhec.   ${rows} de uma execução anterior: consultadas antes no gateway, enviadas só se ele nunca as recebeu`,
  'batch.summary.profile': (profile) => `Perfil       ${profile}`,
  'batch.summary.gateway': (gateway) => `Gateway      ${gateway}`,
  'batch.needsYes': (what) => `um lote envia ${what}: passe --yes para confirmar quando não estiver num terminal; nada foi enviado`,
  'batch.needsYesHint': 'adicione --yes (ou confira o arquivo antes com --dry-run)',
  'batch.confirm': (what) => `Enviar ${what}?`,
  'batch.notConfirmed': 'lote não confirmado; nada foi enviado',
  'batch.progress': (done, total, ok, refused, unknown, sent, rate, left) => `lote: ${done}/${total} linhas (ok ${ok}, recusadas ${refused}, desconhecidas ${unknown}), ${sent} enviados, ${rate}/s, faltam uns ${left} s`,
  'batch.sameRow': (kind, first) => `é ${kind === 'cashin' ? 'a mesma cobrança' : 'o mesmo saque'} da linha ${first} (${kind === 'cashout' ? 'valor, tipo de chave e chave PIX' : 'valor, documento do pagador e produto'}); passe --allow-duplicate se as duas são para valer`,
  'batch.bar': ' {bar} {value}/{total} | ok {ok} · recusadas {refused} · desconhecidas {unknown} | {reais} | {rate}/s | faltam {eta_formatted}',
  'batch.interrupted': (n) => `interrompido: nenhuma linha nova será iniciada; esperando as ${n} em andamento (Ctrl-C de novo para abortá-las: o resultado delas pode ficar desconhecido)`,
  'batch.notStarted': (n) => `interrompido: ${n} linha${n === 1 ? ' não foi iniciada' : 's não foram iniciadas'}; rode o mesmo comando de novo para continuar`,
  'batch.allPaid': (name) => `todas as linhas de ${name} foram pagas neste gateway por uma execução anterior (o mesmo arquivo, pelo SHA-256): nada a enviar`,
  // ── paycli config (src/cli/run/config.ts) ──
  'config.unknownKey': (key, keys) => `chave de configuração desconhecida "${key}"; chaves válidas: ${keys}, header.<Nome>`,
  'config.noProfiles': 'nenhum perfil configurado: os comandos usam o sandbox embutido (configure um com `paycli config set base-url <url>`)',
  'config.emptyProfile': (profile) => `o perfil "${profile}" não tem configurações (então usa o sandbox embutido)`,
  'config.notSet': (key, profile) => `${key} não está definida no perfil "${profile}"`,
  'config.nothingToRemove': (key, profile) => `${key} não está definida no perfil "${profile}": nada a remover`,
  'config.removed': (key, profile) => `${key} removida do perfil "${profile}"`,
  'config.set': (key, profile, masked, insecure) => `${key} definida no perfil "${profile}"${masked ? ` (${masked})` : ''}${insecure ? ', com allow-insecure-http true (http sem TLS lembrado para este perfil)' : ''}`,
  // ── paycli auth (src/cli/run/auth.ts) ──
  'auth.refused': (host, message) => `${host} recusou esta chave de API (${message}); nada foi guardado`,
  'auth.refusedHint': 'confira a chave (de teste ou de produção?) e a URL base do perfil',
  'auth.uncheckedNetwork': (why) => `não foi possível conferir a chave: ${why}; nada foi guardado`,
  'auth.uncheckedHint': 'tente de novo, ou guarde sem conferir com --no-check',
  'auth.uncheckedKept': (why) => `não foi possível conferir a chave (${why}); guardada mesmo assim`,
  'auth.kept': (checked, host, masked, profile, where) => `${checked ? `${host} aceita a chave de API` : 'chave de API não conferida'} (${masked}) do perfil "${profile}"; guardada em ${where}`,
  'auth.configFile': (path) => `o arquivo de configuração ${path} (modo 0600)`,
  'auth.noKeychain': (said, why) => `${said}: não há chaveiro para usar (${why})`,
  'auth.envWins': 'PAYCLI_API_KEY está definida neste ambiente: ela tem precedência sobre a chave recém-guardada',
  'auth.status.profile': 'Perfil',
  'auth.status.gateway': 'Gateway',
  'auth.status.keptIn': 'Guardada',
  'auth.status.key': 'Chave',
  'auth.status.accepted': 'Aceita',
  'auth.status.sandboxHost': 'o sandbox embutido',
  'auth.store.env': 'o ambiente (PAYCLI_API_KEY)',
  'auth.store.file': 'o arquivo de configuração',
  'auth.store.none': 'em lugar nenhum',
  'auth.says.sandbox': 'não perguntado (o sandbox embutido não precisa de chave)',
  'auth.says.noKey': 'não perguntado (sem chave)',
  'auth.says.yes': 'sim, o gateway aceita a chave',
  'auth.says.no': (message) => `não, o gateway a recusa (${message})`,
  'auth.says.unknown': (why) => `desconhecido (${why})`,
  'auth.noKey': (profile, problem) => `sem chave de API para o perfil "${profile}"${problem ? `: ${problem}` : ''}`,
  'auth.runLogin': (command) => `rode \`${command}\``,
  'auth.refusesProfile': (host, profile) => `${host} recusa a chave de API do perfil "${profile}"`,
  'auth.runLoginRight': (command) => `rode \`${command}\` com a chave certa`,
  // ── status, reconcile, cash-in extras (src/cli/run/) ──
  'status.both': 'informe um id de transação ou --order-id, não os dois; nada foi consultado',
  'status.none': 'informe o id da transação (p. ex. paycli status 9029) ou --order-id <ref>',
  'status.notNumber': (id) => `o id da transação deve ser um número inteiro (o transactionId do gateway); veio "${id}"`,
  'status.noLookup': (answer) => `o gateway não tem essa consulta (${answer})`,
  'status.noLookupHint': 'confira a URL base e as chaves de configuração status-path / status-by-order-path (`paycli config list`)',
  'reconcile.interrupted': 'interrompido: o reconcile parou (o que já foi resolvido está registrado)',
  'reconcile.nothing': (since) => `nenhum pagamento com resultado desconhecido${since ? ` desde ${since}` : ''}: nada a reconciliar`,
  'reconcile.settled': (settled, total, left) => `${settled} de ${total} resolvidos${left ? `; ${left} ainda desconhecidos` : ''}`,
  'cashin.tooNarrow': (columns) => `o terminal é estreito demais (${columns} colunas) para desenhar este QR code legível: use --qr-file qr.png, ou \`paycli brcode qr --png qr.png <código>\``,
  'cashin.qrWritten': (file) => `imagem do QR code gravada em ${file}`,
  'cashin.notPng': (tx, file) => `a cobrança foi criada (transação ${tx}), mas qrCodeBase64 não é uma imagem PNG em base64; nada foi gravado em ${file}`,
  'cashin.qrNotWritten': (tx, file, why) => `a cobrança foi criada (transação ${tx}), mas ${file} não pôde ser gravado (${why})`,
  'cashin.attentionHint': (tx) => `a cobrança existe no gateway (transação ${tx}); não entregue o BR Code a um pagador antes de conferir`,
  'cashout.attentionHint': (tx) => `o saque existe no gateway (transação ${tx}); confira lá antes de qualquer outra coisa`,
};
