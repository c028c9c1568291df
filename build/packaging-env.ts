// The parts of the packaging configuration that come from the release machine's environment: the update feed and the
// signing credentials. Absent credentials skip signing; a malformed value stops the build with a clear message.
import type { Configuration, MacConfiguration, WindowsConfiguration } from 'electron-builder';
import { z } from 'zod';

type Env = NodeJS.ProcessEnv;

const updateEnv = z.object({
  REELSYNC_UPDATE_URL: z
    .url({
      protocol: /^https?$/,
      error: 'REELSYNC_UPDATE_URL must be an http(s) URL, e.g. https://downloads.example.com/reelsync',
    })
    .optional(),
  REELSYNC_UPDATE_CHANNEL: z
    .string()
    .regex(/^[a-z][a-z0-9-]*$/, 'REELSYNC_UPDATE_CHANNEL must be a channel name such as latest or beta')
    .optional(),
});

/** Blank variables count as unset: CI systems often export empty secrets. */
function present(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value ? value : undefined;
}

function parseEnv<O>(schema: z.ZodType<O>, env: Env, names: string[]): O {
  const picked = Object.fromEntries(
    names.map((n): [string, string | undefined] => [n, present(env, n)]).filter(([, v]) => v !== undefined),
  );
  const result = schema.safeParse(picked);
  if (!result.success) throw new Error(`packaging: ${result.error.issues.map((i) => i.message).join('; ')}`);
  return result.data;
}

/**
 * The auto-update feed: a `generic` provider at REELSYNC_UPDATE_URL (electron-builder then writes app-update.yml into
 * the app's resources and the latest*.yml files next to the installers, to upload to that URL). Unset: no feed is
 * configured, no app-update.yml ships, and the app's updater stays off.
 */
export function updatePublish(env: Env): Configuration['publish'] {
  const { REELSYNC_UPDATE_URL: url, REELSYNC_UPDATE_CHANNEL: channel } = parseEnv(updateEnv, env, [
    'REELSYNC_UPDATE_URL',
    'REELSYNC_UPDATE_CHANNEL',
  ]);
  if (!url) return null;
  return [{ provider: 'generic', url, channel: channel ?? 'latest' }];
}

const rebuildEnv = z.object({
  REELSYNC_NPM_REBUILD: z
    .enum(['true', 'false'], { error: 'REELSYNC_NPM_REBUILD must be true or false' })
    .default('true'),
});

/**
 * Whether electron-builder rebuilds native modules (better-sqlite3) against Electron's ABI: yes on release machines;
 * REELSYNC_NPM_REBUILD=false skips it (tests: a rebuild deletes the Node build the dev tree runs on, then fails offline
 * fetching Electron's headers).
 */
export function nativeRebuild(env: Env): boolean {
  return parseEnv(rebuildEnv, env, ['REELSYNC_NPM_REBUILD']).REELSYNC_NPM_REBUILD === 'true';
}

const APPLE_NOTARY_CREDENTIALS = [
  ['APPLE_API_KEY', 'APPLE_API_KEY_ID', 'APPLE_API_ISSUER'],
  ['APPLE_ID', 'APPLE_APP_SPECIFIC_PASSWORD', 'APPLE_TEAM_ID'],
  ['APPLE_KEYCHAIN', 'APPLE_KEYCHAIN_PROFILE'],
];

/**
 * macOS: signs with the certificate in CSC_LINK (+ CSC_KEY_PASSWORD) or the keychain identity CSC_NAME, and notarizes
 * when one of the notary credential sets @electron/notarize reads is complete. Without a certificate the app is built
 * unsigned (identity null stops electron-builder searching the keychain) and not notarized.
 */
export function macSigning(env: Env): Pick<MacConfiguration, 'identity' | 'notarize'> {
  const signs = present(env, 'CSC_LINK') !== undefined || present(env, 'CSC_NAME') !== undefined;
  if (!signs) return { identity: null, notarize: false };
  const notarize = APPLE_NOTARY_CREDENTIALS.some((set) => set.every((name) => present(env, name) !== undefined));
  return { notarize };
}

const azureEnv = z.object({
  AZURE_SIGNING_ENDPOINT: z.url({ protocol: /^https$/, error: 'AZURE_SIGNING_ENDPOINT must be an https URL' }),
  AZURE_SIGNING_ACCOUNT: z.string(),
  AZURE_SIGNING_PROFILE: z.string(),
  AZURE_SIGNING_PUBLISHER: z.string(),
});
const AZURE_NAMES = Object.keys(azureEnv.shape);

/**
 * Windows: a .pfx in WIN_CSC_LINK (or CSC_LINK) + WIN_CSC_KEY_PASSWORD is read by electron-builder itself; Azure
 * Trusted Signing is used when all four AZURE_SIGNING_* variables are set (the Azure login comes from AZURE_TENANT_ID,
 * AZURE_CLIENT_ID, AZURE_CLIENT_SECRET). Neither: the installer is built unsigned.
 */
export function windowsSigning(env: Env): Pick<WindowsConfiguration, 'azureSignOptions'> {
  const given = AZURE_NAMES.filter((name) => present(env, name) !== undefined);
  if (given.length === 0) return {};
  if (given.length < AZURE_NAMES.length) {
    throw new Error(
      `packaging: Azure signing needs all of ${AZURE_NAMES.join(', ')}; missing ${AZURE_NAMES.filter((n) => !given.includes(n)).join(', ')}`,
    );
  }
  const azure = parseEnv(azureEnv, env, AZURE_NAMES);
  return {
    azureSignOptions: {
      endpoint: azure.AZURE_SIGNING_ENDPOINT,
      codeSigningAccountName: azure.AZURE_SIGNING_ACCOUNT,
      certificateProfileName: azure.AZURE_SIGNING_PROFILE,
      publisherName: azure.AZURE_SIGNING_PUBLISHER,
    },
  };
}
