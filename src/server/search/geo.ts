/** Distances on the globe for "near" searches: a bounding box the SQL filters by, the exact distance after. */

type Point = { latitude: number; longitude: number };

/** Great-circle distance in km (haversine); a missing coordinate counts as 0. */
export function haversineKm(a: Point, b: { latitude: number | null; longitude: number | null }): number {
  const rad = Math.PI / 180;
  const dLat = ((b.latitude ?? 0) - a.latitude) * rad;
  const dLon = ((b.longitude ?? 0) - a.longitude) * rad;
  const h =
    Math.sin(dLat / 2) ** 2 + Math.cos(a.latitude * rad) * Math.cos((b.latitude ?? 0) * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.sqrt(h));
}

/** The latitude and longitude ranges that hold every point within `radiusKm` of `centre` (and a little more). */
export function boundingBox({ latitude, longitude, radiusKm }: Point & { radiusKm: number }): {
  latitude: [number, number];
  longitude: [number, number];
} {
  const dLat = radiusKm / 111;
  const dLon = radiusKm / (111 * Math.max(0.01, Math.cos((latitude * Math.PI) / 180)));
  return { latitude: [latitude - dLat, latitude + dLat], longitude: [longitude - dLon, longitude + dLon] };
}
