/** Spreadsheets in and out: Portuguese batch columns (src/batch/rows.ts), the CSV dialects (src/cli/csv-dialect.ts) of history and batch results. */
import { amountProblem, parseReais } from '../../src/pix/money.js';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CASHIN_FIELDS, CASHOUT_FIELDS } from '../../src/gateway/fields.js';
import { bodyFromCells, columnKey, mapHeader } from '../../src/batch/rows.js';
import { amountBr, csvDialect } from '../../src/cli/csv-dialect.js';
import { csvChunks } from '../../src/cli/run/history-export.js';
import { ResultsWriter } from '../../src/cli/batch/results.js';
import type { LedgerEntry } from '../../src/ledger/ledger.js';

/** The pieces of an export, in order. */
async function pieces(chunks: AsyncIterable<string>): Promise<string[]> {
  const out: string[] = [];
  for await (const c of chunks) out.push(c);
  return out;
}

describe('Portuguese batch columns', () => {
  it('every cash-out column has a Portuguese name, with or without accents, in any case', () => {
    const header = ['Valor', 'TIPO-CHAVE', 'chave', 'Nome', 'email', 'telefone', 'cpf-cnpj-recebedor', 'id-pedido', 'url-postback'];
    const { targets, problems } = mapHeader(CASHOUT_FIELDS, header);
    expect(problems).toEqual([]);
    expect(targets.map((t) => (t && 'field' in t ? t.field.path : 'amount'))).toEqual([
      'amount',
      'pixKeyType',
      'pixKey',
      'person.name',
      'person.email',
      'person.phone',
      'cpfCnpj',
      'orderId',
      'postbackUrl',
    ]);
    expect(columnKey(' Descrição-Produto ')).toBe('descricao-produto');
    expect(mapHeader(CASHOUT_FIELDS, ['tipo_chave']).problems[0]!.message).toMatch(/is not a column paycli knows.*tipo-chave/); // as the English names: - not _
    expect(mapHeader(CASHIN_FIELDS, ['valor-centavos', 'nome', 'cpf-cnpj', 'email', 'telefone', 'produto', 'Descrição']).problems).toEqual([]);
    // the English names keep working; a column given twice (valor and amount) is refused
    expect(mapHeader(CASHOUT_FIELDS, ['value', 'pix-key-type', 'pixKey', 'person.name']).problems).toEqual([]);
    expect(mapHeader(CASHOUT_FIELDS, ['valor', 'amount']).problems[0]!.message).toMatch(/same field as the column valor/);
  });
  it('valor is reais by the one rule of --amount (89,9, 12, 1.234,5 as Excel writes them); valor-centavos is cents', () => {
    const header = ['valor'];
    const { targets } = mapHeader(CASHOUT_FIELDS, header);
    for (const text of ['1.234,56', '15,00', '89,9', '12', '1.234,5', 'R$ 7,05', '1234.56', '0,01']) {
      const row = bodyFromCells(header, targets, [text]);
      expect(row.problems, text).toEqual([]);
      expect(row.body.value, text).toBe(parseReais(text));
      expect(amountProblem(text), text).toBeNull(); // what --amount accepts, and the same cents
    }
    expect([
      bodyFromCells(header, targets, ['89,9']).body.value,
      bodyFromCells(header, targets, ['12']).body.value,
      bodyFromCells(header, targets, ['1.234,5']).body.value,
    ]).toEqual([8990, 1200, 123450]);
    // and what --amount refuses, the column refuses with the same words
    for (const text of ['1.234', '15,505', '-3', 'abc', '0']) expect(bodyFromCells(header, targets, [text]).problems[0]!.message, text).toBe(amountProblem(text));
    const cents = mapHeader(CASHOUT_FIELDS, ['valor-centavos']);
    expect(bodyFromCells(['valor-centavos'], cents.targets, ['1500']).body.value).toBe(1500);
  });
});

describe('CSV dialects', () => {
  it('br when Portuguese is on, else intl; the flag decides', () => {
    expect(csvDialect(undefined, true)).toBe('br');
    expect(csvDialect(undefined, false)).toBe('intl');
    expect(csvDialect('INTL', true)).toBe('intl');
    expect(() => csvDialect('excel', false)).toThrow(/--csv-dialect: use br or intl/);
  });
  it('amountBr writes integer cents with thousands dots and the decimal comma', () => {
    expect(amountBr(123456)).toBe('1.234,56');
    expect(amountBr(5)).toBe('0,05');
    expect(amountBr(9_999_999_999)).toBe('99.999.999,99');
    expect(amountBr(-150)).toBe('-1,50');
  });
  const entry: LedgerEntry = {
    id: 7,
    uuid: 'u',
    time: '2026-11-25T01:30:00.000Z',
    kind: 'cashout',
    value: 123456,
    target: 't',
    endpoint: 't',
    sandbox: false,
    profile: 'default',
    pixKeyType: 2,
    pixKey: 'a@b.co',
    recipient: 'João; Silva',
    allowDuplicate: false,
    outcome: 'ok',
    completed: true,
    fingerprint: 'f',
  };
  it('history br: ; separated, Portuguese names, local day and time first, 1.234,56', async () => {
    const [head, row] = await pieces(csvChunks([entry], { dialect: 'br', timeZone: 'America/Sao_Paulo' }));
    expect(head!.startsWith('\uFEFFlancamento;data_hora_local;fuso_horario;data_hora_utc;tipo;sandbox;perfil;valor_centavos;valor;resultado;')).toBe(true);
    expect(row!.startsWith('7;24/11/2026 22:30:00;UTC-03:00;2026-11-25T01:30:00.000Z;saque;não;default;123456;1.234,56;ok;')).toBe(true); // paycli's words in Portuguese
    expect(row).toContain(';"João; Silva";');
    const [, phone] = await pieces(csvChunks([{ ...entry, pixKeyType: 3, pixKey: '+5531998765432', status: '0' }], { dialect: 'br', timeZone: 'America/Sao_Paulo' }));
    expect(phone).toContain(";sim;telefone;'+5531998765432;"); // outcome recorded; key type; the key behind the formula guard
    expect(phone).toContain(';criado;');
    expect(phone).not.toMatch(/;(true|false|phone|created|cashout);/);
    const [, intl] = await pieces(csvChunks([{ ...entry, pixKeyType: 3, status: '0' }], { dialect: 'intl', timeZone: 'UTC' }));
    expect(intl).toContain(',true,phone,'); // intl keeps the words scripts read
    expect(intl).toContain(',created,');
  });
  it("history intl: today's columns, then time_local at the end", async () => {
    const [head, row] = await pieces(csvChunks([entry], { dialect: 'intl', timeZone: 'America/Sao_Paulo' }));
    expect(head).toBe(
      'entry,time_utc,kind,sandbox,profile,value_cents,amount_brl,outcome,outcome_recorded,pix_key_type,pix_key,recipient,payer,product,order_id,batch_id,batch_row,transaction_id,status,http_status,message,allow_duplicate,resolved_by,resolved_time_utc,note,gateway,user,host,paycli_version,time_local\r\n',
    );
    expect(row).toBe('7,2026-11-25T01:30:00.000Z,cashout,false,default,123456,"1234,56",ok,true,email,a@b.co,João; Silva,,,,,,,,,,false,,,,t,,,,2026-11-24T22:30:00-03:00\r\n');
  });
  it('batch results br: ; separated, Portuguese names, reais and cents', () => {
    const dir = mkdtempSync(join(tmpdir(), 'paycli-results-'));
    try {
      const path = join(dir, 'r.csv');
      const w = new ResultsWriter(path, false, ';', 'br');
      w.write({ row: 1, line: 2, orderId: 'p-1', outcome: 'ok', valueCents: 123456, transactionId: 9, status: '0', feeCents: 150, netCents: 123306 });
      w.close();
      expect(readFileSync(path, 'utf8')).toBe(
        '\uFEFFregistro;linha;id_pedido;resultado;valor;valor_centavos;id_transacao;status;taxa;liquido;br_code;png;erro;sandbox\n1;2;p-1;ok;1.234,56;123456;9;0;1,50;1.233,06;;;;não\n',
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
