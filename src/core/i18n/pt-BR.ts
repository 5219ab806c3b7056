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
 */
import type { Catalog } from './en.js';

export const ptBR: Catalog = {
  'lang.invalid': (choices) => `use um destes: ${choices}`,
  'lang.flag': 'idioma das mensagens e da ajuda: pt-BR ou en (padrão: chave de configuração lang, depois LC_ALL/LC_MESSAGES/LANG)',
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
};
