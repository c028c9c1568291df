import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CAMERA_ORIGINALS, cameraOriginalPath, type CameraOriginalName } from '../../../test/fixtures/camera-originals';
import { makeTimecodeOriginal } from '../../../test/fixtures/timecode-originals';
import { tempDir } from '../../../test/helpers/temp';
import { readOriginalIdentity } from './original-identity';
import { rateFromLabel } from './sidecar-facts';
import { parseSonyXml, sonyLtc } from './sony-xml';
import { parseXmpSidecar } from './xmp-sidecar';
import { parseXml } from './xml';

const run = promisify(execFile);
let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir('reelsync-identity-'));
});
afterAll(async () => cleanup?.());

const sonyXml = (ltc: string, fps: string, tcFps: string): string => `<?xml version="1.0" encoding="UTF-8"?>
<NonRealTimeMeta xmlns="urn:schemas-professionalDisc:nonRealTimeMeta:ver.2.20" lastUpdate="2024-03-12T21:27:31-07:00">
  <TargetMaterial umidRef="060A2B340101010501010D4313000000F1DE4FF9820306CA9C50D1FFFEAEF184"/>
  <Duration value="8130"/>
  <LtcChangeTable tcFps="${tcFps}" halfStep="false">
    <LtcChange frameCount="0" value="${ltc}" status="increment"/>
    <LtcChange frameCount="8129" value="53120700" status="end"/>
  </LtcChangeTable>
  <CreationDate value="2024-03-12T21:23:00-07:00"/>
  <VideoFormat><VideoFrame videoCodec="AVC_1920_1080_H422IP@L41" captureFps="${fps}" formatFps="${fps}"/></VideoFormat>
  <Device manufacturer="Sony" modelName="ILME-FX6V" serialNo="1234567"/>
</NonRealTimeMeta>`;

const xmp = (tc: string, format: string): string => `<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/">
 <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
  <rdf:Description rdf:about="" xmlns:xmpDM="http://ns.adobe.com/xmp/1.0/DynamicMedia/"
    xmlns:dc="http://purl.org/dc/elements/1.1/" xmpDM:tapeName="TAPE_07 &amp; more" xmpDM:cameraModel="URSA Mini">
   <xmpDM:startTimeCode xmpDM:timeFormat="${format}" xmpDM:timeValue="${tc}"/>
   <xmpDM:altTimecode rdf:parseType="Resource">
    <xmpDM:timeValue>${tc}</xmpDM:timeValue>
    <xmpDM:timeFormat>${format}</xmpDM:timeFormat>
   </xmpDM:altTimecode>
   <dc:title><rdf:Alt><rdf:li xml:lang="x-default">Scene 4 take 2</rdf:li></rdf:Alt></dc:title>
  </rdf:Description>
 </rdf:RDF>
</x:xmpmeta>
<?xpacket end="w"?>`;

describe('sidecars', () => {
  test("Sony's LtcChange value is BCD frames, seconds, minutes, hours; bit 6 of the frames is drop frame", () => {
    expect(sonyLtc('17305719')).toEqual({ timecode: '19:57:30:17', drop: false });
    expect(sonyLtc('44590400')).toEqual({ timecode: '00:04:59;04', drop: true });
    expect(sonyLtc('54830000')).toEqual({ timecode: '00:00:03;14', drop: true }); // 0x80 on the seconds is a flag
    expect(sonyLtc('zz000000')).toBeNull();
    expect(sonyLtc('00700000')).toBeNull(); // 70 seconds
  });

  test('a camera rate label names its exact rate', () => {
    expect([
      rateFromLabel('29.97p'),
      rateFromLabel('23.98p'),
      rateFromLabel('25p'),
      rateFromLabel('59.94i'),
      rateFromLabel('2997Drop'),
      rateFromLabel('23976'),
      rateFromLabel('50'),
      rateFromLabel('fast'),
    ]).toEqual(['30000/1001', '24000/1001', '25/1', '30000/1001', '30000/1001', '24000/1001', '50/1', null]);
  });

  test('Sony NonRealTimeMeta: start timecode, rate, camera and date', () => {
    const facts = parseSonyXml(sonyXml('44410200', '29.97p', '30'), 'C0001M01.XML');
    expect(facts).toMatchObject({
      kind: 'sony-xml',
      startTimecode: '00:02:41;04',
      rate: '30000/1001',
      dropFrame: true,
      cameraMake: 'Sony',
      cameraModel: 'ILME-FX6V',
      createdAt: '2024-03-12T21:23:00-07:00',
    });
  });

  test('XMP: start and alternate timecode in either struct spelling, tape name, shot name, camera', () => {
    const facts = parseXmpSidecar(xmp('01:00:00;00', '2997DropTimecode'), 'clip.xmp');
    expect(facts).toMatchObject({
      startTimecode: '01:00:00;00',
      altTimecode: '01:00:00;00',
      rate: '30000/1001',
      dropFrame: true,
      reel: 'TAPE_07 & more',
      clipName: 'Scene 4 take 2',
      cameraModel: 'URSA Mini',
    });
  });

  test('entities are never expanded nor fetched; broken XML reads as no sidecar', () => {
    const laughs = `<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>
<NonRealTimeMeta><Device manufacturer="&b;" modelName="m"/></NonRealTimeMeta>`;
    expect(parseSonyXml(laughs, 'x.XML')?.cameraMake).toBe('&b;');
    const external = `<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><NonRealTimeMeta><Device modelName="&e;"/></NonRealTimeMeta>`;
    expect(parseSonyXml(external, 'x.XML')).toBeNull();
    expect(parseXml('<a><b></a>')).toBeNull();
    expect(parseXml('not xml')).toBeNull();
    expect(parseSonyXml('<Other/>', 'x.XML')).toBeNull();
  });
});

describe('the identity of a camera original', () => {
  test('29.97 DF ProRes in QuickTime: tmcd timecode, its frame count, reel, rate, codec', async () => {
    const path = await makeTimecodeOriginal('df2997', dir);
    const id = await readOriginalIdentity(path);
    expect(id).toMatchObject({
      startTimecode: '00:59:59;28',
      startFrame: 107_890, // 01:00:00;00 is 107892
      rate: '30000/1001',
      dropFrame: true,
      timecodeSource: 'tmcd',
      reel: 'A007',
      clipName: 'A007C012',
      codec: 'prores',
      hasAudio: true,
      width: 320,
    });
    expect(id.durationFrames).toBe(60);
  });

  test('23.976 counts at base 24; DNxHD in MXF gives its timecode from MXF', async () => {
    const film = await readOriginalIdentity(await makeTimecodeOriginal('film23976', dir));
    expect([film.startTimecode, film.startFrame, film.rate, film.dropFrame]).toEqual([
      '14:22:09:23',
      (14 * 3600 + 22 * 60 + 9) * 24 + 23,
      '24000/1001',
      false,
    ]);
    const pal = await readOriginalIdentity(await makeTimecodeOriginal('pal25', dir));
    expect(pal).toMatchObject({
      startTimecode: '10:00:00:00',
      startFrame: 900_000,
      timecodeSource: 'mxf',
      reel: 'C001',
    });
    expect(pal.codec).toBe('dnxhd');
  });

  test('a file without timecode takes it from its Sony XML, then its XMP; the embedded one wins over both', async () => {
    const plain = await makeTimecodeOriginal('film23976', dir, 'C0001.mov');
    await writeFile(join(dir, 'C0001M01.XML'), sonyXml('17305719', '23.98p', '24'));
    await writeFile(join(dir, 'C0001.xmp'), xmp('02:00:00:00', '23976Timecode'));
    const withTmcd = await readOriginalIdentity(plain);
    expect(withTmcd.timecodeSource).toBe('tmcd');
    expect(withTmcd.sidecars.map((s) => s.kind)).toEqual(['sony-xml', 'xmp']);
    expect(withTmcd.cameraModel).toBe('ILME-FX6V');

    // The same picture without its tmcd track: the sidecars have to say.
    await run('ffmpeg', [
      ...['-loglevel', 'error', '-y', '-i', plain, '-map', '0:v', '-c', 'copy', '-write_tmcd', '0'],
      join(dir, 'E0003.mov'),
    ]);
    await writeFile(join(dir, 'E0003M01.XML'), sonyXml('17305719', '23.98p', '24'));
    const sony = await readOriginalIdentity(join(dir, 'E0003.mov'));
    expect([sony.timecodeSource, sony.startTimecode, sony.rate]).toEqual(['sony-xml', '19:57:30:17', '24000/1001']);
    await writeFile(join(dir, 'E0003.mov.xmp'), xmp('02:00:00:00', '23976Timecode'));
    await writeFile(join(dir, 'E0003M01.XML'), '<broken');
    const fromXmp = await readOriginalIdentity(join(dir, 'E0003.mov'));
    expect([fromXmp.timecodeSource, fromXmp.startTimecode, fromXmp.reel, fromXmp.clipName]).toEqual([
      'xmp',
      '02:00:00:00',
      'TAPE_07 & more',
      'Scene 4 take 2',
    ]);
  });
});

describe('the camera-original fixtures', () => {
  test.each(Object.keys(CAMERA_ORIGINALS) as CameraOriginalName[])(
    '%s: timecode, reel, clip name, rate',
    async (name) => {
      const want = CAMERA_ORIGINALS[name];
      const path = cameraOriginalPath(name);
      const id = await readOriginalIdentity(path);
      expect(id.startTimecode).toBe(want.timecode ?? '00:00:00:00');
      expect(id.timecodeSource).toBe(
        want.timecode === null ? 'none' : path.toLowerCase().endsWith('.mxf') ? 'mxf' : 'tmcd',
      );
      expect(id.reel).toBe(want.reel);
      expect(id.clipName).toBe(want.clipName ?? want.file.replace(/\.[^.]+$/, ''));
      expect([id.rate, id.codec, id.width, id.height, id.hasAudio]).toEqual([
        want.fps,
        want.codec,
        want.width,
        want.height,
        want.audio,
      ]);
      expect(Math.abs((id.durationSeconds ?? 0) - want.seconds)).toBeLessThan(0.1);
    },
  );
});
