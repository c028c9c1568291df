// The packaging configuration's environment knobs: update feed, native rebuild, signing and notarization.
import { describe, expect, it } from 'vitest';
import { packagingConfig } from '../../build/electron-builder.config';
import { macSigning, updatePublish, windowsSigning } from '../../build/packaging-env';

const APPLE_API = { APPLE_API_KEY: '/keys/AuthKey.p8', APPLE_API_KEY_ID: 'ABC123', APPLE_API_ISSUER: 'issuer-uuid' };
const AZURE = {
  AZURE_SIGNING_ENDPOINT: 'https://weu.codesigning.azure.net',
  AZURE_SIGNING_ACCOUNT: 'reelsync',
  AZURE_SIGNING_PROFILE: 'public-trust',
  AZURE_SIGNING_PUBLISHER: 'Reelsync Ltd',
};

describe('packaging configuration', () => {
  it('names the app and targets each platform', () => {
    const config = packagingConfig({});
    expect(config).toMatchObject({
      appId: 'app.reelsync.desktop',
      productName: 'Reelsync',
      executableName: 'reelsync',
    });
    expect(config.mac).toMatchObject({
      category: 'public.app-category.video',
      target: [
        { target: 'dmg', arch: ['x64', 'arm64'] },
        { target: 'zip', arch: ['x64', 'arm64'] },
      ],
    });
    expect(config.win?.target).toEqual([{ target: 'nsis', arch: ['x64'] }]);
    expect(config.linux).toMatchObject({ category: 'AudioVideo', target: ['AppImage', 'deb'] });
    expect(config.deb?.depends).toEqual(expect.arrayContaining(['libnss3', 'perl', 'ffmpeg']));
  });

  it('rebuilds native modules unless REELSYNC_NPM_REBUILD=false', () => {
    expect(packagingConfig({}).npmRebuild).toBe(true);
    expect(packagingConfig({ REELSYNC_NPM_REBUILD: 'true' }).npmRebuild).toBe(true);
    expect(packagingConfig({ REELSYNC_NPM_REBUILD: 'false' }).npmRebuild).toBe(false);
    expect(() => packagingConfig({ REELSYNC_NPM_REBUILD: 'no' })).toThrow(/REELSYNC_NPM_REBUILD must be true or false/);
  });

  it('configures a generic update feed only when REELSYNC_UPDATE_URL is set', () => {
    expect(updatePublish({})).toBeNull();
    expect(updatePublish({ REELSYNC_UPDATE_URL: '  ' })).toBeNull();
    expect(updatePublish({ REELSYNC_UPDATE_URL: 'https://downloads.example.com/reelsync' })).toEqual([
      { provider: 'generic', url: 'https://downloads.example.com/reelsync', channel: 'latest' },
    ]);
    expect(
      updatePublish({ REELSYNC_UPDATE_URL: 'https://downloads.example.com/reelsync', REELSYNC_UPDATE_CHANNEL: 'beta' }),
    ).toEqual([{ provider: 'generic', url: 'https://downloads.example.com/reelsync', channel: 'beta' }]);
    expect(() => updatePublish({ REELSYNC_UPDATE_URL: 'ftp://downloads.example.com' })).toThrow(
      /REELSYNC_UPDATE_URL must be an http\(s\) URL/,
    );
    expect(() => updatePublish({ REELSYNC_UPDATE_URL: 'downloads' })).toThrow(
      /REELSYNC_UPDATE_URL must be an http\(s\) URL/,
    );
    expect(() =>
      updatePublish({ REELSYNC_UPDATE_URL: 'https://x.example', REELSYNC_UPDATE_CHANNEL: '../beta' }),
    ).toThrow(/REELSYNC_UPDATE_CHANNEL/);
  });

  it('signs and notarizes macOS builds only with credentials from the environment', () => {
    expect(macSigning({})).toEqual({ identity: null, notarize: false });
    expect(macSigning(APPLE_API)).toEqual({ identity: null, notarize: false });
    expect(macSigning({ CSC_LINK: '/certs/developer-id.p12' })).toEqual({ notarize: false });
    expect(macSigning({ CSC_LINK: '/certs/developer-id.p12', ...APPLE_API })).toEqual({ notarize: true });
    expect(
      macSigning({
        CSC_NAME: 'Developer ID Application: Reelsync',
        APPLE_ID: 'a@b.c',
        APPLE_APP_SPECIFIC_PASSWORD: 'x',
        APPLE_TEAM_ID: 'T',
      }),
    ).toEqual({ notarize: true });
    expect(macSigning({ CSC_LINK: '/certs/developer-id.p12', APPLE_ID: 'a@b.c', APPLE_TEAM_ID: 'T' })).toEqual({
      notarize: false,
    });
    expect(packagingConfig({}).mac).toMatchObject({ identity: null, notarize: false, hardenedRuntime: true });
  });

  it('uses Azure Trusted Signing for Windows when all its variables are set, and says which are missing', () => {
    expect(windowsSigning({})).toEqual({});
    expect(windowsSigning(AZURE)).toEqual({
      azureSignOptions: {
        endpoint: AZURE.AZURE_SIGNING_ENDPOINT,
        codeSigningAccountName: 'reelsync',
        certificateProfileName: 'public-trust',
        publisherName: 'Reelsync Ltd',
      },
    });
    expect(() => windowsSigning({ AZURE_SIGNING_ENDPOINT: AZURE.AZURE_SIGNING_ENDPOINT })).toThrow(
      /missing AZURE_SIGNING_ACCOUNT, AZURE_SIGNING_PROFILE, AZURE_SIGNING_PUBLISHER/,
    );
    expect(() => windowsSigning({ ...AZURE, AZURE_SIGNING_ENDPOINT: 'http://insecure.example' })).toThrow(
      /AZURE_SIGNING_ENDPOINT must be an https URL/,
    );
  });
});
