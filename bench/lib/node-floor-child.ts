/**
 * The least work any Node.js SMS gateway does per message, with the libraries Wren uses, as a child
 * process of bench:peer so that its CPU is measured apart from the load generator's:
 *
 *   http <port>                 a Fastify server with one JSON route that answers an id: the HTTP
 *                               part of accepting a message (parse, route, serialise), nothing else
 *   smpp <port> <n> <window> <warm-up>
 *                               the `smpp` library as a client of the SMSC at <port>: bind, submit
 *                               <warm-up> messages and then n more, with at most <window> unanswered,
 *                               answer every receipt; prints its own CPU per message of the n as JSON
 *
 * Neither stores anything, checks anything or matches a receipt to a message.
 */
import Fastify from 'fastify';
import smpp from 'smpp';

const [mode, portArg, nArg, windowArg, warmArg] = process.argv.slice(2);
const port = Number(portArg);

async function httpFloor() {
  const app = Fastify({ logger: false });
  let next = 0;
  app.post<{ Body: { recipients: string[]; text: string } }>('/api/sms/single', async (req, reply) => {
    next += 1;
    return reply.code(201).send({ id: next, recipients: req.body.recipients.length });
  });
  await app.listen({ port, host: '127.0.0.1' });
  process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
}

async function smppFloor(n: number, window: number, warm: number) {
  const session = smpp.connect({ host: '127.0.0.1', port });
  session.socket.setNoDelay(true);
  let receipts = 0;
  let target = 0;
  let done: () => void = () => undefined;
  session.on('deliver_sm', (pdu: smpp.PDU) => {
    session.send(pdu.response());
    receipts += 1;
    if (receipts === target) done();
  });
  await new Promise<void>((resolve, reject) =>
    session.bind_transceiver({ system_id: 'wren', password: 'wrenpass' }, (pdu) =>
      pdu.command_status === 0 ? resolve() : reject(new Error(`bind: status ${pdu.command_status}`)),
    ),
  );
  /** Submits `count` messages and resolves when every receipt so far is in. */
  const run = (count: number) => {
    target += count;
    const allIn = new Promise<void>((resolve) => (done = resolve));
    let sent = 0;
    let answered = 0;
    const pump = () => {
      while (sent < count && sent - answered < window) {
        const i = sent;
        sent += 1;
        session.submit_sm(
          {
            source_addr: 'Wren',
            destination_addr: `1212555${String(i % 10_000).padStart(4, '0')}`,
            short_message: `Bench message ${i}`,
            data_coding: 0,
            registered_delivery: 1,
          },
          () => {
            answered += 1;
            pump();
          },
        );
      }
    };
    pump();
    return allIn;
  };
  if (warm > 0) await run(warm);
  const before = process.cpuUsage();
  await run(n);
  const cpu = process.cpuUsage(before);
  process.stdout.write(`${JSON.stringify({ usPerMessage: (cpu.user + cpu.system) / n })}\n`);
  session.close();
  process.exit(0);
}

if (mode === 'http') await httpFloor();
else if (mode === 'smpp') await smppFloor(Number(nArg), Number(windowArg), Number(warmArg ?? 0));
else throw new Error(`node-floor-child: unknown mode ${mode}`);
