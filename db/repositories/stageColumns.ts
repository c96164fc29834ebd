import type { Stage } from '../../contracts/stages';

type Prefix = Lowercase<Stage>;

export interface StageColumnNames {
  status: `${Prefix}_status`;
  startedAt: `${Prefix}_started_at`;
  ms: `${Prefix}_ms`;
}

/** The pipelines row keeps three columns per stage; this names them for a stage. */
export function stageColumns(stage: Stage): StageColumnNames {
  const prefix = stage.toLowerCase() as Prefix;
  return { status: `${prefix}_status`, startedAt: `${prefix}_started_at`, ms: `${prefix}_ms` };
}
