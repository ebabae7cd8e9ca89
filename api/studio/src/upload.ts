import { ApiError, csrfToken } from './api';

/**
 * One file to `POST /management/v1/assets` as the raw body (its name in the query string),
 * reporting progress: fetch cannot report an upload's progress, XMLHttpRequest can. Resolves with
 * the new asset's id.
 */
export function uploadAsset(file: File, onProgress: (fraction: number) => void): Promise<{ id: string }> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `/management/v1/assets?fileName=${encodeURIComponent(file.name.slice(0, 255))}`);
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
