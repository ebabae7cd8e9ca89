import { useQuery } from '@tanstack/react-query';
import { get, m } from '../../api';
import { Problems } from '../Problems';

/** The GraphQL type the saved model produces, as the API's delivery schema prints it. */
export function GraphqlPreview({ alias }: { alias: string }) {
  const sdl = useQuery({ queryKey: ['model-sdl', alias], queryFn: () => get<{ typeName: string; sdl: string }>(m(`/models/${encodeURIComponent(alias)}/graphql`)) });
  return (
    <section aria-labelledby="sdl-title" className="sdl">
      <h2 id="sdl-title">GraphQL type{sdl.data ? ` ${sdl.data.typeName}` : ''}</h2>
      <p className="hint">What delivery clients read, as of the last save.</p>
      {sdl.isError ? <Problems error={sdl.error} /> : <pre tabIndex={0} aria-label="GraphQL type of the model">{sdl.data?.sdl ?? 'Loading…'}</pre>}
    </section>
  );
}
