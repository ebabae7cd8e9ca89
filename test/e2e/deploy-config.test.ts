import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Deployment } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { ConfigMap, Service } from 'kubernetes-models/v1';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments, parse } from 'yaml';
import { projectRoot } from '../../shared/paths.js';

/**
 * The deployment files as the tools that read them do: Compose's own `config` validation,
 * the Kubernetes schemas (kubernetes-models), and what the Dockerfile and its context hold.
 */
const deploy = (file: string) => path.join(projectRoot, 'deploy', file);
const DOCKER_COMPOSE = '/usr/bin/docker-compose';

interface ComposeService {
  image?: string;
  restart?: string;
  healthcheck?: { test: string[] };
  depends_on?: Record<string, { condition: string }>;
  environment?: Record<string, string>;
}

describe.runIf(existsSync(DOCKER_COMPOSE))('deploy/compose.yaml', () => {
  const env = { ...process.env, PLATFORM_ADMIN_TOKEN: 'x'.repeat(32), SIGNING_SECRET: 'y'.repeat(32) };

  it('passes `docker-compose config` (Debian docker-compose 1.29: syntax, references, conditions)', () => {
    const run = spawnSync(DOCKER_COMPOSE, ['-f', deploy('compose.yaml'), 'config', '-q'], { env, encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
  });

  it('every long-running service has a health check and a restart policy; the API and workers wait for healthy dependencies', () => {
    const normalized = execFileSync(DOCKER_COMPOSE, ['-f', deploy('compose.yaml'), 'config'], { env, encoding: 'utf8' });
    const services = (parse(normalized) as { services: Record<string, ComposeService> }).services;
    for (const [name, service] of Object.entries(services)) {
      if (name === 'minio-bucket') {
        expect(service.restart).toBe('on-failure'); // a one-shot job
        continue;
      }
      expect([name, Boolean(service.healthcheck?.test?.length), service.restart]).toEqual([name, true, 'unless-stopped']);
    }
    expect(services.api.depends_on).toMatchObject({ postgres: { condition: 'service_healthy' }, redis: { condition: 'service_healthy' }, clickhouse: { condition: 'service_healthy' }, 'minio-bucket': { condition: 'service_completed_successfully' } });
    expect(services.workers.depends_on).toMatchObject({ api: { condition: 'service_healthy' } });
    expect(services.workers.environment?.HEALTH_PORT).toBe('3001');
    expect(services.workers.healthcheck!.test.join(' ')).toContain('localhost:3001/readyz');
  });
});
if (!existsSync(DOCKER_COMPOSE)) console.warn(`skipping the compose validation: no ${DOCKER_COMPOSE} (apt-get install docker-compose)`);

describe('deploy/k8s', () => {
  const KINDS: Record<string, new (o: never) => { validate(): void }> = {
    'apps/v1/Deployment': Deployment,
    'v1/Service': Service,
    'v1/ConfigMap': ConfigMap,
    'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  };
  const manifests = ['api.yaml', 'workers.yaml', 'config.yaml'].flatMap((file) =>
    parseAllDocuments(readFileSync(deploy(`k8s/${file}`), 'utf8')).map((doc) => ({ file, object: doc.toJS() as { apiVersion: string; kind: string; metadata: { name: string } } })),
  );

  it.each(manifests.map((m) => [`${m.file} ${m.object.kind} ${m.object.metadata.name}`, m.object] as const))('%s is valid against the Kubernetes schema', (_name, object) => {
    const Kind = KINDS[`${object.apiVersion}/${object.kind}`];
    expect(Kind, `no schema wired for ${object.apiVersion} ${object.kind}`).toBeDefined();
    expect(() => new Kind(object as never).validate()).not.toThrow();
  });

  it('both Deployments probe their process: the API /readyz and /healthz, the workers on HEALTH_PORT', () => {
    const deployments = manifests.filter((m) => m.object.kind === 'Deployment').map((m) => new Deployment(m.object as never));
    for (const d of deployments) {
      const container = d.spec!.template.spec!.containers[0];
      expect([d.metadata!.name, container.readinessProbe?.httpGet?.path, container.livenessProbe?.httpGet?.path]).toEqual([d.metadata!.name, '/readyz', '/healthz']);
    }
  });
});

describe('one image for compose and the manifests', () => {
  it('kustomization.yaml applies every manifest and sets the one image name both Deployments use', () => {
    const kustomization = parse(readFileSync(deploy('k8s/kustomization.yaml'), 'utf8')) as { resources: string[]; images: { name: string; newName: string; newTag: string }[] };
    expect([...kustomization.resources].sort()).toEqual(['api.yaml', 'config.yaml', 'workers.yaml']);
    expect(kustomization.images).toHaveLength(1);
    const images = ['api.yaml', 'workers.yaml'].flatMap((file) =>
      parseAllDocuments(readFileSync(deploy(`k8s/${file}`), 'utf8'))
        .map((d) => d.toJS() as { kind: string; spec?: { template?: { spec?: { containers: { image: string }[] } } } })
        .filter((o) => o.kind === 'Deployment')
        .flatMap((o) => o.spec!.template!.spec!.containers.map((c) => c.image)),
    );
    expect(images).toEqual([kustomization.images[0].name, kustomization.images[0].name]);
  });

  it('compose builds the image once (the api service) and the workers run it', () => {
    const services = (parse(readFileSync(deploy('compose.yaml'), 'utf8')) as { services: Record<string, ComposeService & { build?: unknown; pull_policy?: string }> }).services;
    expect(Object.entries(services).filter(([, s]) => s.build).map(([name]) => name)).toEqual(['api']);
    expect(services.workers.image).toBe(services.api.image);
    expect(services.workers.pull_policy).toBe('never');
  });
});

describe('deploy/k8s: a rolling update drains before the pod is killed', () => {
  const deployment = (file: string) => new Deployment(parseAllDocuments(readFileSync(deploy(`k8s/${file}`), 'utf8')).map((d) => d.toJS() as { kind: string }).find((o) => o.kind === 'Deployment') as never);
  const envOf = (d: Deployment) => Object.fromEntries((d.spec!.template.spec!.containers[0].env ?? []).map((e) => [e.name, Number(e.value)]));

  it('the API keeps serving with /readyz failing for longer than the readiness probe takes to notice, and the grace period covers the delay and the drain', () => {
    const api = deployment('api.yaml');
    const pod = api.spec!.template.spec!;
    const container = pod.containers[0];
    const env = envOf(api);
    const probe = container.readinessProbe!;
    const noticedWithinMs = (probe.periodSeconds ?? 10) * (probe.failureThreshold ?? 3) * 1000;
    expect(env.SHUTDOWN_READINESS_DELAY_MS, 'SHUTDOWN_READINESS_DELAY_MS').toBeGreaterThan(noticedWithinMs);
    // A hung dependency makes /readyz take up to its 2 s check timeout; the probe must wait for that.
    expect(probe.timeoutSeconds).toBeGreaterThan(2);
    const preStopMs = container.lifecycle?.preStop?.exec?.command?.[0] === 'sleep' ? Number(container.lifecycle.preStop.exec.command[1]) * 1000 : 0;
    expect(pod.terminationGracePeriodSeconds! * 1000).toBeGreaterThanOrEqual(preStopMs + env.SHUTDOWN_READINESS_DELAY_MS + env.SHUTDOWN_TIMEOUT_MS + 5000);
  });

  it('the workers finish their jobs within the grace period', () => {
    const workers = deployment('workers.yaml');
    expect(workers.spec!.template.spec!.terminationGracePeriodSeconds! * 1000).toBeGreaterThanOrEqual(envOf(workers).SHUTDOWN_TIMEOUT_MS + 5000);
  });
});

describe('the image', () => {
  it('leaves the embedded engines out: chDB and PGlite are optional dependencies the Dockerfile uninstalls', () => {
    const pkg = JSON.parse(readFileSync(path.join(projectRoot, 'package.json'), 'utf8')) as { dependencies: Record<string, string>; optionalDependencies: Record<string, string> };
    for (const engine of ['chdb', '@electric-sql/pglite']) {
      expect(pkg.optionalDependencies[engine], engine).toBeDefined();
      expect(pkg.dependencies[engine], engine).toBeUndefined();
    }
    expect(readFileSync(deploy('Dockerfile'), 'utf8')).toMatch(/npm prune --omit=dev && npm uninstall [^\n]*chdb @electric-sql\/pglite/);
  });

  it('the Dockerfile has a HEALTHCHECK, and .dockerignore keeps data (tokens), node_modules and .git out of the context', () => {
    expect(readFileSync(deploy('Dockerfile'), 'utf8')).toMatch(/^HEALTHCHECK [\s\S]*?CMD \["node", "-e", "[^\n]*\/readyz/m);
    const ignored = readFileSync(path.join(projectRoot, '.dockerignore'), 'utf8').split('\n').map((l) => l.trim());
    for (const entry of ['data', 'node_modules', '.git', 'dist', '.tmp']) expect(ignored).toContain(entry);
  });
});
