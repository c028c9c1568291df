import type { CollectionRecord } from '../../datalake/collections';
import type { DeliveryRecord } from '../../datalake/deliveries';
import type { SafetyEvent } from '../../datalake/events';
import type { OperationRecord } from '../../datalake/operations';
import type { Streams } from '../../datalake/streams';
import type { videoRecord } from '../../datalake/video-record';

/** The answer types of interface B's routes (docs/api.md), each route declaring its own with `answer<T>()`. */
export type { CollectionRecord, DeliveryRecord, OperationRecord };
export type { MomentAnswer } from '../../datalake/moment';
export type VideoRecord = Awaited<ReturnType<typeof videoRecord>>;
export type StreamRecord = Awaited<ReturnType<Streams['record']>>;

export interface CollectionList {
  collections: CollectionRecord[];
  next_cursor: string | null;
}
export interface VideoList {
  videos: VideoRecord[];
  next_cursor: string | null;
}
export interface StreamList {
  streams: StreamRecord[];
  next_cursor: string | null;
}
export interface EventsPage {
  events: SafetyEvent[];
  next_cursor: string | null;
  live: boolean;
}
export interface DeliveryList {
  deliveries: DeliveryRecord[];
}
/** POST /operations/{id}:cancel: 200 cancelled, or 409 with the error beside the same fields. */
export interface CancelAnswer {
  operation: string;
  cancelled: boolean;
  done: boolean;
  error?: { code: 'conflict'; message: string };
}
export interface Balance {
  balance_micro_usd: number;
  balance_usd: number;
  currency: 'USD';
}
