import { ApiError, csrfToken } from './api';

/**
 * One file as the raw body (its name in the query string), reporting progress: fetch cannot
 * report an upload's progress, XMLHttpRequest can. A new asset by default (`POST /assets`);
 * with `replace`, a new version of that asset's file, its id kept (`PUT /assets/:id/content`).
 * Resolves with the asset's id.
 */
export function uploadAsset(file: File, onProgress: (fraction: number) => void, options: { replace?: string } = {}): Promise<{ id: string }> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    const name = `fileName=${encodeURIComponent(file.name.slice(0, 255))}`;
    if (options.replace) xhr.open('PUT', `/management/v1/assets/${encodeURIComponent(options.replace)}/content?${name}`);
    else xhr.open('POST', `/management/v1/assets?${name}`);
    xhr.setRequestHeader('content-type', file.type || 'application/octet-stream');
    xhr.setRequestHeader('accept', 'application/json');
    const csrf = csrfToken();
    if (csrf) xhr.setRequestHeader('x-csrf-token', csrf);
    xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(e.loaded / e.total);
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        try {
          return resolve((JSON.parse(xhr.responseText) as { result: { id: string } }).result);
        } catch {
          return reject(new ApiError(xhr.status, ['The upload was stored but its answer was not the envelope.']));
        }
      }
      let errors = [`HTTP ${xhr.status}`];
      try {
        errors = (JSON.parse(xhr.responseText) as { errors: string[] }).errors;
      } catch {
        // not the envelope
      }
      reject(new ApiError(xhr.status, errors));
    };
    xhr.onerror = () => reject(new ApiError(0, ['The upload failed: is the server reachable?']));
    xhr.send(file);
  });
}
