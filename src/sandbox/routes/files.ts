/**
 * File routes: raw-body upload streamed in (hash computed while the bytes arrive, `uploading`
 * visible meanwhile), download of ready files, deletion.
 */
import { createHash } from 'node:crypto';
import { ApiError, notFound } from '../errors';
import { declaredLength, FILE_BODY_LIMIT, readBody } from '../http-io';
import type { RequestContext, Route } from '../router';
import {
  beginUpload,
  busy,
  checkDelete,
  checkFileName,
  checkNewUpload,
  checkUploadTarget,
  completeUpload,
  failUpload,
  finishDelete,
  newGeneration,
  readyFile,
  storagePathOf,
} from '../state/files';
import { toReport } from '../state/serialize';
import { intParam, uuidParam } from './query';
import { accountOf, reportIdOf } from './reports';

const fileIdOf = (ctx: RequestContext): string => uuidParam(ctx.params.file_id ?? '', 'file_id');

const emptyFile = (): ApiError => new ApiError(422, 'empty_file', 'The file has no bytes.');

function contentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

export const fileRoutes: Route[] = [
  {
    method: 'PUT',
    template: '/api/reports/{report_id}/files/{file_id}',
    auth: 'user',
    async handle(ctx) {
      const { env, req, query } = ctx;
      const world = env.world;
      const reportId = reportIdOf(ctx);
      const fileId = fileIdOf(ctx);
      const name = checkFileName(query.get('name'));
      const revision = intParam(query, 'revision', 0, undefined);
      const contentType = req.headers['content-type'] || 'application/octet-stream';
      const r = world.reportOf(accountOf(ctx).uid, reportId);
      if (!r) throw notFound('Report not found.');
      const limits = { maxBytes: FILE_BODY_LIMIT, timeoutMs: env.options.fileBodyTimeoutMs };

      const existing = r.attachments[fileId] ?? r.submission?.attachments[fileId];
      if (existing && (existing.state === 'uploading' || existing.state === 'deleting'))
        throw busy();
      if (existing && existing.state === 'ready') {
        // Same id: a safe repeat when bytes, name and type match; otherwise a conflict.
        const bytes = await readBody(req, limits);
        const same =
          existing.name === name &&
          existing.content_type === contentType &&
          existing.size === bytes.length &&
          existing.sha256 === createHash('sha256').update(bytes).digest('hex');
        if (!same) {
          throw new ApiError(409, 'file_conflict', 'A different file already has this id.');
        }
        return { status: 200, body: toReport(r) };
      }

      checkUploadTarget(r);
      checkNewUpload(r, fileId, revision);
      const declared = declaredLength(req);
      if (declared === 0) throw emptyFile();
      if (declared !== undefined && declared > FILE_BODY_LIMIT) {
        throw new ApiError(413, 'too_large', `A file holds at most ${FILE_BODY_LIMIT} bytes.`);
      }

      const attachment = beginUpload(world, r, fileId, name, contentType);
      env.changed();
      const hash = createHash('sha256');
      let bytes: Buffer;
      try {
        bytes = await readBody(req, { ...limits, onChunk: (chunk) => hash.update(chunk) });
      } catch (error) {
        failUpload(world, r, fileId, false);
        throw error;
      }
      if (bytes.length === 0) {
        failUpload(world, r, fileId, false);
        throw emptyFile();
      }
      const ms = env.clock.now();
      const generation = newGeneration(world, ms);
      const storagePath = storagePathOf(r.id, fileId, generation);
      try {
        await env.blobs.put(storagePath, bytes);
      } catch {
        failUpload(world, r, fileId, true);
        throw new ApiError(503, 'storage_unavailable', 'The file could not be stored.', {
          retryAfter: 5,
        });
      }
      completeUpload(world, r, attachment, {
        size: bytes.length,
        sha256: hash.digest('hex'),
        generation,
        storagePath,
      });
      return { status: 200, body: toReport(r) };
    },
  },
  {
    method: 'GET',
    template: '/api/reports/{report_id}/files/{file_id}',
    auth: 'user',
    async handle(ctx) {
      const r = ctx.env.world.reportOf(accountOf(ctx).uid, reportIdOf(ctx));
      const a = r ? readyFile(r, fileIdOf(ctx)) : undefined;
      if (!a) throw notFound('File not found.');
      const bytes = await ctx.env.blobs.get(a.storage_path);
      if (!bytes) {
        throw new ApiError(503, 'storage_unavailable', 'The file could not be read.', {
          retryAfter: 5,
        });
      }
      return {
        status: 200,
        bytes,
        headers: {
          'Content-Type': 'application/octet-stream',
          'Content-Disposition': contentDisposition(a.name),
          ETag: `"${a.sha256}"`,
          'Cache-Control': 'private, no-store',
          'X-Content-Type-Options': 'nosniff',
        },
      };
    },
  },
  {
    method: 'DELETE',
    template: '/api/reports/{report_id}/files/{file_id}',
    auth: 'user',
    async handle(ctx) {
      const { env, query } = ctx;
      const reportId = reportIdOf(ctx);
      const fileId = fileIdOf(ctx);
      const revision = intParam(query, 'revision', 0, undefined);
      const r = env.world.reportOf(accountOf(ctx).uid, reportId);
      if (!r) throw notFound('Report not found.');
      const a = checkDelete(r, fileId, revision);
      a.state = 'deleting';
      try {
        if (a.storage_path) await env.blobs.delete(a.storage_path);
      } finally {
        finishDelete(env.world, r, fileId);
      }
      return { status: 200, body: toReport(r) };
    },
  },
];
