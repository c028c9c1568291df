import { elements, parseXml, textOf, type XmlElement } from './xml';
import { normalTimecode, rateFromLabel, sidecarFactsSchema, type SidecarFacts } from './sidecar-facts';

/** A property written either as an attribute (`xmpDM:tapeName="A001"`) or as an element, anywhere in the packet. */
function property(root: XmlElement, name: string): string | null {
  const asAttr = elements(root, 'Description')
    .map((d) => d.attrs[name]?.trim())
    .find((v): v is string => !!v);
  return asAttr ?? textOf(root, name);
}

/** xmpDM's Timecode struct (`timeFormat` "2997DropTimecode", `timeValue` "01:00:00;00"), either spelling. */
function timecodeStruct(root: XmlElement, name: string): { value: string; format: string | null } | null {
  for (const e of elements(root, name)) {
    const value = e.attrs.timeValue ?? textOf(e, 'timeValue');
    if (value) return { value, format: e.attrs.timeFormat ?? textOf(e, 'timeFormat') };
  }
  return null;
}

/** The facts of an XMP sidecar (`<name>.xmp`): xmpDM start and alternate timecodes, tape/reel name, shot, camera. */
export function parseXmpSidecar(text: string, file: string): SidecarFacts | null {
  const root = parseXml(text);
  if (!root || (root.name !== 'xmpmeta' && root.name !== 'RDF')) return null;
  const start = timecodeStruct(root, 'startTimeCode');
  const alt = timecodeStruct(root, 'altTimecode');
  const format = start?.format ?? alt?.format ?? null;
  const drop = format ? /Drop/i.test(format) : null;
  const parsed = sidecarFactsSchema.safeParse({
    kind: 'xmp',
    file,
    startTimecode: normalTimecode(start?.value ?? null, drop),
    rate: rateFromLabel(format?.replace(/Timecode$/i, '') ?? null),
    dropFrame: drop,
    altTimecode: normalTimecode(alt?.value ?? null, drop),
    reel: property(root, 'reelName') ?? property(root, 'tapeName') ?? property(root, 'altTapeName'),
    clipName: property(root, 'shotName') ?? property(root, 'title'),
    cameraMake: property(root, 'Make'),
    cameraModel: property(root, 'cameraModel') ?? property(root, 'Model'),
    createdAt: property(root, 'CreateDate') ?? property(root, 'DateCreated'),
  });
  return parsed.success ? parsed.data : null;
}
