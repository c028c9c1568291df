import { z } from 'zod';
import type { AnalyzeResult } from '../analyze-video';

/**
 * Messages between the service's HTTP thread (the host) and its analysis worker thread. Both sides parse what they
 * receive with these schemas: a message that does not match is a bug on the other side, never something to guess at.
 */

const labelSchema = z.object({ label: z.string(), score: z.number(), source: z.string() });
const faceSchema = z.object({
  descriptor: z.array(z.number()),
  model: z.string().min(1),
  box: z.tuple([z.number(), z.number(), z.number(), z.number()]),
  score: z.number(),
});
const wordSchema = z.object({ word: z.string(), start: z.number(), end: z.number() });

export const analyzeResultSchema = z.object({
  durationSeconds: z.number().positive(),
  posterPath: z.string().min(1),
  segments: z.array(
    z.object({
      index: z.number().int().nonnegative(),
      start: z.number().nonnegative(),
      end: z.number().nonnegative(),
      keyframePath: z.string().min(1),
      ocrText: z.string(),
      labels: z.array(labelSchema),
      transcript: z.string(),
      caption: z.string(),
      faces: z.array(faceSchema),
      shotQuality: z.number().min(0).max(1).nullable(),
    }),
  ),
  words: z.array(wordSchema),
  missingEngines: z.array(z.object({ analyzer: z.string(), reason: z.string() })),
  analyzers: z.array(z.object({ name: z.string(), version: z.string() })),
  failures: z.array(z.object({ analyzer: z.string(), segmentIndex: z.number().int().nullable(), message: z.string() })),
}) satisfies z.ZodType<AnalyzeResult>;

/** The part of AnalyzeOptions that can cross a thread: plain data (callbacks, signals and analyzers cannot). */
export const analyzeRequestSchema = z.object({
  videoPath: z.string().min(1),
  workDir: z.string().min(1),
  transcriptionPrompt: z.string().optional(),
  maxSegmentSeconds: z.number().positive().optional(),
});
export type AnalyzeRequest = z.infer<typeof analyzeRequestSchema>;

const jobId = z.number().int().positive();

export const toWorkerSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('analyze'), id: jobId, request: analyzeRequestSchema }),
  /** The caller's AbortSignal fired: stop the job; the worker answers with `failed` (aborted) once it has stopped. */
  z.object({ type: z.literal('abort'), id: jobId, reason: z.string() }),
  /** Close the analyzers (tesseract's thread, models) and answer `closed`. */
  z.object({ type: z.literal('close') }),
]);
export type ToWorker = z.infer<typeof toWorkerSchema>;

export const fromWorkerSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('progress'), id: jobId, percent: z.number().min(0).max(100), stage: z.string() }),
  z.object({ type: z.literal('result'), id: jobId, result: analyzeResultSchema }),
  z.object({
    type: z.literal('failed'),
    id: jobId,
    error: z.object({ name: z.string(), message: z.string() }),
    /** True when the job stopped because it was aborted. */
    aborted: z.boolean(),
  }),
  z.object({ type: z.literal('closed') }),
]);
export type FromWorker = z.infer<typeof fromWorkerSchema>;

/** What the host hands the worker when it starts it. */
export const workerDataSchema = z.object({ logLevel: z.string() });
export type AnalysisWorkerData = z.infer<typeof workerDataSchema>;
