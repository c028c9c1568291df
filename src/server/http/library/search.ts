import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { captionItemSchema, clipItemSchema, imagePageSchema } from '../../../shared/api-types';
import { libraryQuery } from '../../search/query/library-query';
import type { LibrarySearch } from '../../search/library-search';
import { libraryRoute } from './route';

const transcriptQuery = z.object({
  query: z.string().trim().min(1, 'query must not be empty').max(1000),
  page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(1).max(100, 'page_size must be at most 100').default(20),
});

/** POST /search: the data's shape follows search_type (clips, captions, or the image page). */
export const searchAnswer = z.union([z.array(clipItemSchema), z.array(captionItemSchema), imagePageSchema]);

export function registerSearch(app: FastifyInstance, search: LibrarySearch): void {
  libraryRoute(app, {
    method: 'POST',
    url: '/search',
    body: libraryQuery,
    response: searchAnswer,
    handler: async ({ account, body }) => search.text(account.id, body),
  });

  libraryRoute(app, {
    method: 'GET',
    url: '/search_audio_transcripts',
    query: transcriptQuery,
    response: z.object({
      current_page: z.number().int(),
      page_size: z.number().int(),
      total_count: z.number().int(),
      items: z.array(clipItemSchema),
    }),
    handler: async ({ account, query }) => search.transcripts(account.id, query),
  });
}
