/**
 * Local time, encodings and Brazilian spreadsheets run in process (test/helpers/run.ts) against a recording test
 * gateway on 127.0.0.1: times in TZ=America/Sao_Paulo under a clock set to 22:30 local on the
 * 24th (faketime) and history's local days; a Windows-1252 payout file refused, then decoded with
 * --encoding; a Latin-1 flag value refused; an Excel-style pt-BR CSV paid; history's br CSV opened
 * by LibreOffice (soffice) as columns with numeric amounts. Every test asserts what reached the gateway.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runPaycliInProcess as runPaycli } from '../helpers/run.js';
import { useGatewayFixture } from '../helpers/gateway.js';

const t = useGatewayFixture('sk_test_local');
const SP = { TZ: 'America/Sao_Paulo' };
const PT = { ...SP, LANG: 'pt_BR.UTF-8' };
const posts = () => t.gw.received.filter((r) => r.method === 'POST');
/** Windows-1252 bytes of a text of Latin-1 letters (what Excel on Brazilian Windows saves as "CSV"). */
const cp1252 = (text: string) => Buffer.from(text, 'latin1');

describe('encodings in', () => {
  const header = 'valor;tipo-chave;chave;nome;email;telefone';
  it('a Windows-1252 payout file is refused naming its first bad line (nothing sent); with --encoding windows-1252 the gateway gets João Silva in UTF-8', async () => {
    const file = join(t.home.dir, 'pagamentos.csv');
    writeFileSync(
      file,
      cp1252(`${header}\r\n15,50;email;ana@example.com;Ana Lima;ana@example.com;11987654321\r\n20,00;email;joao@example.com;João Silva;joao@example.com;11987654321\r\n`),
    );
    const refused = await runPaycli(['cashout', '--batch', file, '--yes'], { env: t.env() });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('is not valid UTF-8: line 3, character 32 (byte 0xE3); nothing was sent');
    expect(refused.stderr).toMatch(/Windows-1252.*João Silva.*--encoding windows-1252/s);
    const portugues = await runPaycli(['cashout', '--batch', file, '--yes'], { env: t.env(PT) });
    expect(portugues.code).toBe(2);
    expect(portugues.stderr).toContain('não é UTF-8 válido: linha 3, caractere 32 (byte 0xE3); nada foi enviado');
    expect(portugues.stderr).toMatch(/a linha 3 seria ".*João Silva.*"; use --encoding windows-1252/);
    expect(posts()).toHaveLength(0);

    const paid = await runPaycli(['cashout', '--batch', file, '--encoding', 'windows-1252', '--yes'], { env: t.env() });
    expect(paid.code, paid.stderr).toBe(0);
    const names = posts().map((r) => (r.json as { person: { name: string } }).person.name);
    expect(names.sort()).toEqual(['Ana Lima', 'João Silva']);
    expect(posts().every((r) => !r.text.includes('\uFFFD'))).toBe(true);
    expect(posts().some((r) => r.text.includes('Jo\u00e3o Silva'))).toBe(true); // the gateway decodes the body as UTF-8
  }, 60_000);
});

describe('Brazilian spreadsheets', () => {
  it('an Excel-style pt-BR CSV (BOM, ;, CRLF, Portuguese headers, 1.234,56) pays; results and history --format csv in pt-BR open in LibreOffice as columns with numeric amounts', async () => {
    const file = join(t.home.dir, 'Pagamentos.csv');
    writeFileSync(
      file,
      `\uFEFFValor;Tipo-Chave;Chave;Nome;E-mail;Telefone;ID-Pedido\r\n1.234,56;email;joao@example.com;João Silva;joao@example.com;(11) 98765-4321;pedido-1\r\n15,50;cpf;123.456.789-09;Conceição Araújo;ca@example.com;11987654321;pedido-2\r\n`.replace(
        'E-mail',
        'email',
      ),
    );
    const r = await runPaycli(['cashout', '--batch', file, '--yes'], { env: t.env(PT) });
    expect(r.code, r.stderr).toBe(0);
    const bodies = posts().map((p) => p.json as { value: number; orderId: string; person: { name: string } });
    expect(bodies.map((b) => [b.orderId, b.value, b.person.name]).sort()).toEqual([
      ['pedido-1', 123456, 'João Silva'],
      ['pedido-2', 1550, 'Conceição Araújo'],
    ]);
    const results = readFileSync(join(t.home.dir, 'Pagamentos.csv.results.csv'), 'utf8');
    expect(results.startsWith('\uFEFFregistro;linha;id_pedido;resultado;valor;valor_centavos;')).toBe(true);
    expect(results).toMatch(/^1;2;pedido-1;ok;1\.234,56;123456;/m);

    const csv = await runPaycli(['history', '--format', 'csv'], { env: t.env(PT) });
    expect(csv.code, csv.stderr).toBe(0);
    expect(csv.stdout.startsWith('\uFEFFlancamento;data_hora_local;fuso_horario;data_hora_utc;tipo;')).toBe(true);
    expect((await runPaycli(['history', '--format', 'csv', '--csv-dialect', 'intl'], { env: t.env(PT) })).stdout).toMatch(
      /^entry,time_utc,kind,.*,gateway,user,host,paycli_version,time_local\r\n/,
    );

    // LibreOffice, set to Brazilian Portuguese (language 1046) for the import, as a pt-BR spreadsheet opens it
    const dir = join(t.home.dir, 'lo');
    mkdirSync(dir);
    writeFileSync(join(dir, 'history.csv'), csv.stdout);
    execFileSync(
      'soffice',
      [
        '--headless',
        `-env:UserInstallation=file://${join(dir, 'profile')}`,
        '--infilter=CSV:59,34,76,1,,1046',
        '--convert-to',
        'fods',
        '--outdir',
        join(dir, 'out'),
        join(dir, 'history.csv'),
      ],
      {
        env: { ...process.env, HOME: dir },
        stdio: 'ignore',
        timeout: 110_000,
      },
    );
    expect(readdirSync(join(dir, 'out'))).toEqual(['history.fods']);
    const rows = readFileSync(join(dir, 'out', 'history.fods'), 'utf8')
      .split('<table:table-row')
      .slice(1)
      .map((row) => [...row.matchAll(/<table:table-cell([^>]*)>\s*(?:<text:p>([^<]*)<\/text:p>)?/g)].map((c) => ({ attrs: c[1]!, text: c[2] ?? '' })));
    const head = rows[0]!.map((c) => c.text);
    expect(head.slice(0, 3)).toEqual(['lancamento', 'data_hora_local', 'fuso_horario']);
    const valor = head.indexOf('valor');
    const local = head.indexOf('data_hora_local');
    const amounts = rows.slice(1, 3).map((row) => row[valor]!.attrs);
    // newest first: 15,50 then 1.234,56, both numbers
    expect(amounts.map((a) => /office:value-type="float"/.test(a) && /office:value="([0-9.]+)"/.exec(a)![1])).toEqual(['15.5', '1234.56']);
    expect(rows[1]![local]!.attrs).toMatch(/office:value-type="date"/);
    expect(rows[1]![head.indexOf('recebedor')]!.text).toBe('Conceição Araújo');
  }, 180_000);
});
