import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { recordAction, recordLoader } from "~/crud/crud.server";
import { personasDe } from "~/crud/personas.server";
import { departamentos } from "~/entities/departamentos";
import { EntityRecordPage, recordMeta } from "~/ui/EntityPages";
import { PersonasSection } from "~/ui/Personas";

export const loader = (args: LoaderFunctionArgs) =>
  recordLoader(departamentos, args, { extra: personasDe("departamento") });
export const action = (args: ActionFunctionArgs) => recordAction(departamentos, args);
export const meta = recordMeta(departamentos);

export default function Departamento() {
  const { personas } = useLoaderData<typeof loader>();
  return (
    <EntityRecordPage entity={departamentos}>
      <PersonasSection personas={personas} donde="en este departamento" />
    </EntityRecordPage>
  );
}
