import { useEffect, useState, type FormEvent } from "react";
import type { Entity } from "~/entities/entity";

/** A solicitante's department and branch, as «Nuevo gasto» would use them (names, or null when the profile has none). */
export type Perfil = { departamento: string | null; sucursal: string | null };

/**
 * «Nuevo gasto» leaves department and branch empty: on save they come from the solicitante.
 * This says under each field which value that will be. The person's own when they cannot choose
 * the solicitante (also without JavaScript); for an administrador, whoever the select holds —
 * after hydration only, since without JavaScript the page cannot follow the select, and the
 * general hint stays true. `onChange` goes on an element around the form.
 */
export function useAyudaSolicitante(
  entity: Entity,
  perfiles: Record<string, Perfil>,
  user: { id: string; rol: string },
) {
  const elige = user.rol === "administrador";
  const [hidratado, setHidratado] = useState(false);
  const [elegido, setElegido] = useState<string | null>(null);
  useEffect(() => setHidratado(true), []);
  const onChange = (event: FormEvent<HTMLElement>) => {
    const target = event.target as HTMLSelectElement;
    if (target.name === "solicitante_id") setElegido(target.value);
  };
  if (elige && !hidratado) return { entity, onChange };
  // An empty solicitante is the person filling the form (acciones.server.ts).
  const id = (elige ? elegido : null) || user.id;
  const perfil = perfiles[id];
  if (!perfil) return { entity, onChange };
  const de = id === user.id ? { m: "el suyo", f: "la suya" } : { m: "el del solicitante", f: "la del solicitante" };
  const ayuda: Record<string, string> = {
    departamento_id: perfil.departamento
      ? `Si lo deja vacío, ${de.m}: ${perfil.departamento}.`
      : `${id === user.id ? "Su perfil" : "El perfil del solicitante"} no tiene departamento: elíjalo.`,
    sucursal_id: perfil.sucursal
      ? `Si lo deja vacío, ${de.f}: ${perfil.sucursal}.`
      : `${id === user.id ? "Su perfil" : "El perfil del solicitante"} no tiene sucursal: elíjala.`,
  };
  return {
    entity: { ...entity, fields: entity.fields.map((f) => (ayuda[f.name] ? { ...f, hint: ayuda[f.name] } : f)) },
    onChange,
  };
}
