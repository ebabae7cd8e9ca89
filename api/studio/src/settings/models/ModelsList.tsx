import { useQuery } from '@tanstack/react-query';
import { get, m } from '../../api';
import { Link } from '../../Link';
import type { Me, Model } from '../../types';
import { canChangeModels } from '../access';
import { Problems } from '../Problems';

/** `/models`: every model, each a link named by the model's name. */
export function ModelsList({ me }: { me: Me }) {
  const models = useQuery({ queryKey: ['models'], queryFn: () => get<Model[]>(m('/models')) });
  return (
    <main className="content settings">
      <div className="heading">
        <h1>Models</h1>
        {canChangeModels(me) && <Link to="/models/new">New model</Link>}
      </div>
      {models.isError && <Problems error={models.error} />}
      {models.data?.length === 0 && <p>No models yet.</p>}
      <ul className="settings-list">
        {models.data?.map((x) => (
          <li key={x.alias}>
            <Link to={`/models/${encodeURIComponent(x.alias)}`}>{x.name}</Link>
            <span className="muted">
              {x.alias} · {x.fields.length} {x.fields.length === 1 ? 'field' : 'fields'}
            </span>
          </li>
        ))}
      </ul>
    </main>
  );
}
