import { z } from 'zod';

export const endpointSchema = z.discriminatedUnion('mode', [
  z.object({ mode: z.literal('embedded') }).strict(),
  z.object({ mode: z.literal('cloud'), url: z.url({ protocol: /^https?$/ }).max(2000) }).strict(),
]);
export type Endpoint = z.infer<typeof endpointSchema>;

export const CONNECTION_STATES = ['connected', 'not-configured', 'failed'] as const;

/** What happens to the library copy when a watched file is deleted on disk. */
export const REMOTE_DELETE_POLICIES = ['keep', 'delete'] as const;
export type RemoteDeletePolicy = (typeof REMOTE_DELETE_POLICIES)[number];

/** What closing the desktop window does: tray: hide it, syncing goes on in the tray (only where a tray icon exists); quit. */
export const WINDOW_CLOSE_ACTIONS = ['tray', 'quit'] as const;
export type WindowCloseAction = (typeof WINDOW_CLOSE_ACTIONS)[number];
export const DEFAULT_WINDOW_CLOSE: WindowCloseAction = 'tray';

/** The app's look: follow the system, or always light or dark. */
export const THEMES = ['system', 'light', 'dark'] as const;
export type Theme = (typeof THEMES)[number];
export const DEFAULT_THEME: Theme = 'system';

/** Search proxy widths in pixels (never upscaled); 1280 by default. */
export const PROXY_WIDTHS = [960, 1280, 1920] as const;
export type ProxyWidth = (typeof PROXY_WIDTHS)[number];
export const MIN_PROXY_CACHE_CAP = 1024 ** 3;

export const proxySettingsSchema = z.object({
  width: z.union([z.literal(960), z.literal(1280), z.literal(1920)]),
  /** The proxy cache's size cap in bytes (1 GiB at least). */
  cacheCapBytes: z
    .number()
    .int()
    .min(MIN_PROXY_CACHE_CAP)
    .max(2 ** 50),
  /** Keep proxies after indexing, for offline playback (else deleted once indexed). */
  keep: z.boolean(),
});
export type ProxySettingsValues = z.infer<typeof proxySettingsSchema>;

export const settingsViewSchema = z.object({
  endpoint: endpointSchema,
  /** A cloud key is stored (its value never leaves main). */
  cloudKeySet: z.boolean(),
  uploadConcurrency: z.number().int().min(1).max(8),
  launchAtLogin: z.boolean(),
  windowClose: z.enum(WINDOW_CLOSE_ACTIONS),
  /** keep: the library keeps videos whose local file was deleted; delete: they are deleted from the library too. */
  remoteDeletePolicy: z.enum(REMOTE_DELETE_POLICIES),
  theme: z.enum(THEMES),
  proxy: proxySettingsSchema,
  /** What this running app is connected to; changes to the endpoint or concurrency apply on the next start. */
  connection: z.object({
    state: z.enum(CONNECTION_STATES),
    mode: z.enum(['embedded', 'cloud']).nullable(),
    baseUrl: z.string().nullable(),
    error: z.string().nullable(),
    /** The service was given when the app was started (--server), so the saved choice below is not the one in use. */
    givenAtStart: z.boolean(),
  }),
  restartRequired: z.boolean(),
});
export type SettingsView = z.infer<typeof settingsViewSchema>;

/** App settings: endpoint, key, concurrency, launch at login, window close, remote delete policy. */
export const settingsChannels = {
  'settings:get': { req: z.object({}).strict(), res: settingsViewSchema },
  'settings:set': {
    req: z
      .object({
        endpoint: endpointSchema.optional(),
        /** A cloud key to store; empty string removes it. */
        cloudKey: z.string().max(500).optional(),
        uploadConcurrency: z.number().int().min(1).max(8).optional(),
        launchAtLogin: z.boolean().optional(),
        windowClose: z.enum(WINDOW_CLOSE_ACTIONS).optional(),
        remoteDeletePolicy: z.enum(REMOTE_DELETE_POLICIES).optional(),
        theme: z.enum(THEMES).optional(),
        proxy: proxySettingsSchema.partial().strict().optional(),
      })
      .strict(),
    res: settingsViewSchema,
  },
  /**
   * Switches the library in use now: a cloud address and key are tried with a real call first (refused in plain words,
   * nothing changed); the embedded service is started. Saved only once it works.
   */
  'settings:use-library': {
    req: z.discriminatedUnion('mode', [
      z.object({ mode: z.literal('embedded') }).strict(),
      z
        .object({
          mode: z.literal('cloud'),
          url: z.string().trim().min(1).max(2000),
          /** Omitted: the stored key. */
          key: z.string().max(500).optional(),
        })
        .strict(),
    ]),
    res: settingsViewSchema,
  },
} as const;

export const settingsEvents = {
  'settings:changed': settingsViewSchema,
} as const;
