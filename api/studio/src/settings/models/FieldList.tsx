import { FieldEditor } from './FieldEditor';
import { moved, type FieldDraft } from './model-draft';

interface Props {
  fields: FieldDraft[];
  onChange: (fields: FieldDraft[]) => void;
  models: { alias: string; name: string }[];
  components: { alias: string; name: string }[];
  inComponent?: boolean;
  disabled: boolean;
}

/** The fields of a model or component in order, each edited, moved or removed in place. */
export function FieldList({ fields, onChange, models, components, inComponent, disabled }: Props) {
  return (
    <ol className="fields">
      {fields.map((f, i) => (
        <FieldEditor
          key={f.key}
          field={f}
          place={i + 1}
          count={fields.length}
          inComponent={inComponent}
          models={models}
          components={components}
          disabled={disabled}
          onChange={(nf) => onChange(fields.map((x) => (x.key === f.key ? nf : x)))}
          onMove={(by) => onChange(moved(fields, i, by))}
          onRemove={() => onChange(fields.filter((x) => x.key !== f.key))}
        />
      ))}
    </ol>
  );
}
