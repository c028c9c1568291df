import { z } from 'zod';

// Zod probes `new Function` on first object parse to decide whether to compile fast parsers: under our CSP
// (script-src 'self') the probe is a reported violation even though zod catches the throw. Jitless skips it.
z.config({ jitless: true });
