import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { uploadAsset } from '../upload';

/**
 * A file input named `label` that uploads the chosen file as a new asset and hands its id on,
 * with its progress and, on a refusal, the API's reason.
 */
export function UploadInput({ label, accept, onUploaded, disabled }: { label: string; accept?: string; onUploaded: (id: string, fileName: string) => void; disabled?: boolean }) {
  const qc = useQueryClient();
  const id = useId();
  const [state, setState] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  const upload = async (file: File | undefined) => {
    if (!file) return;
    setFailed(false);
    setState(`Uploading ${file.name}…`);
    try {
      const asset = await uploadAsset(file, (f) => setState(`Uploading ${file.name}: ${Math.round(f * 100)} %`));
      setState(`Uploaded ${file.name}.`);
      void qc.invalidateQueries({ queryKey: ['resources', 'media'] });
      void qc.invalidateQueries({ queryKey: ['assets'] });
      onUploaded(asset.id, file.name);
    } catch (err) {
      setFailed(true);
      setState(`${file.name} was not uploaded: ${err instanceof Error ? err.message : String(err)}`);
    }
  };
  return (
    <div className="upload-input">
      <label htmlFor={id}>{label}</label>
      <input id={id} type="file" accept={accept} disabled={disabled} onChange={(e) => (void upload(e.target.files?.[0]), (e.target.value = ''))} />
      <p role={failed ? 'alert' : 'status'} className={failed ? 'error' : 'hint'}>
        {state}
      </p>
    </div>
  );
}
