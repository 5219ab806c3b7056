// The floor for any Node client of the gateway: import undici, POST one cash-in, print the answer.
// Used by `npm run bench` as the baseline paycli's cash-in is compared with.
import { request } from 'undici';

const res = await request(`${process.env.BENCH_URL}/transaction/qrcode/cashin`, {
  method: 'POST',
  headers: { 'content-type': 'application/json', authorization: 'Bearer bench' },
  body: JSON.stringify({
    payerName: 'Fulano de Tal',
    payerDocument: '12345678909',
    payerEmail: 'fulano@example.com',
    payerPhone: '11987654321',
    productName: 'Camiseta',
    productDescription: 'Camiseta azul M',
    value: 1000,
  }),
});
process.stdout.write(await res.body.text());
