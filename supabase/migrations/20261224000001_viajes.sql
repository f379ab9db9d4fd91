-- Viajes, kilometraje y dietas, con la parte exenta de IRPF de cada uno (Reglamento del IRPF,
-- art. 9) y la sujeta. docs/producto.md, «Viajes, kilometraje y dietas».
--
-- - Un viaje agrupa los gastos de un desplazamiento de su solicitante; sus gastos se envían, se
--   aprueban o se rechazan juntos (20261224000002_flujo_de_viajes), cada uno con su
--   estado y su historial, por las funciones de cada gasto: todas sus comprobaciones valen.
-- - Un gasto es de una clase: ordinario, kilometraje (km × la tarifa de la empresa) o dieta (el
--   importe diario de la empresa). Los dos últimos los calcula la base y van sin justificante.
-- - Los límites exentos son filas con fecha (limites_exentos_irpf): un cambio de la norma es una
--   fila. La parte exenta y la sujeta de cada gasto se calculan al leer (interno.irpf) hasta que
--   se aprueba; entonces se fijan, como el IVA deducible.

-- ---------------------------------------------------------------------------------------------
-- Límites exentos, por tipo y fecha de entrada en vigor (rige la última anterior o igual).
-- ---------------------------------------------------------------------------------------------
create table public.limites_exentos_irpf (
  id uuid primary key default gen_random_uuid(),
  tipo text not null
    constraint limites_exentos_irpf_tipo_check check (tipo in (
      'km', 'dieta_espana_sin_pernocta', 'dieta_espana_con_pernocta',
      'dieta_extranjero_sin_pernocta', 'dieta_extranjero_con_pernocta')),
  vigente_desde date not null,
  importe numeric(8, 2) not null
    constraint limites_exentos_irpf_importe_check check (importe >= 0 and importe <= 10000),
  creado_en timestamptz not null default now(),
  actualizado_en timestamptz not null default now(),
  version integer not null default 1,
  constraint limites_exentos_irpf_tipo_vigente_desde_key unique (tipo, vigente_desde)
);
select interno.tabla_de_administracion('limites_exentos_irpf');
grant insert (tipo, vigente_desde, importe), update (vigente_desde, importe)
  on public.limites_exentos_irpf to authenticated;
-- Los gastos aplican estas filas: se corrigen, no se borran.
revoke delete on public.limites_exentos_irpf from authenticated;

-- Orden EHA/3771/2005 (0,19 €/km), Orden HFP/792/2023 (0,26 €/km desde el 17-07-2023) y las
-- dietas de manutención del Reglamento (RD 1757/2007, en vigor desde 2008).
insert into public.limites_exentos_irpf (tipo, vigente_desde, importe) values
  ('km', '2006-01-01', 0.19),
  ('km', '2023-07-17', 0.26),
  ('dieta_espana_sin_pernocta', '2008-01-01', 26.67),
  ('dieta_espana_con_pernocta', '2008-01-01', 53.34),
  ('dieta_extranjero_sin_pernocta', '2008-01-01', 48.08),
  ('dieta_extranjero_con_pernocta', '2008-01-01', 91.35);

-- El límite de un tipo en una fecha (null si ninguno). Como propietario: quien escribe o lee un
-- gasto lo aplica aunque no pueda leer la tabla.
create function interno.limite_exento(p_tipo text, p_fecha date) returns numeric
language sql stable security definer set search_path = '' as $$
  select l.importe from public.limites_exentos_irpf l
   where l.tipo = p_tipo and l.vigente_desde <= p_fecha
   order by l.vigente_desde desc limit 1
$$;

-- ---------------------------------------------------------------------------------------------
-- Lo que paga la empresa: su tarifa por km y sus dietas diarias (en /empresa).
-- ---------------------------------------------------------------------------------------------
alter table public.empresa
  add column tarifa_km numeric(5, 2) not null default 0.26
    constraint empresa_tarifa_km_check check (tarifa_km > 0 and tarifa_km <= 10),
  add column dieta_espana_sin_pernocta numeric(8, 2) not null default 26.67
    constraint empresa_dieta_espana_sin_pernocta_check check (dieta_espana_sin_pernocta > 0 and dieta_espana_sin_pernocta <= 10000),
  add column dieta_espana_con_pernocta numeric(8, 2) not null default 53.34
    constraint empresa_dieta_espana_con_pernocta_check check (dieta_espana_con_pernocta > 0 and dieta_espana_con_pernocta <= 10000),
  add column dieta_extranjero_sin_pernocta numeric(8, 2) not null default 48.08
    constraint empresa_dieta_extranjero_sin_pernocta_check check (dieta_extranjero_sin_pernocta > 0 and dieta_extranjero_sin_pernocta <= 10000),
  add column dieta_extranjero_con_pernocta numeric(8, 2) not null default 91.35
    constraint empresa_dieta_extranjero_con_pernocta_check check (dieta_extranjero_con_pernocta > 0 and dieta_extranjero_con_pernocta <= 10000);
grant update (tarifa_km, dieta_espana_sin_pernocta, dieta_espana_con_pernocta, dieta_extranjero_sin_pernocta,
              dieta_extranjero_con_pernocta)
  on public.empresa to authenticated;

-- ---------------------------------------------------------------------------------------------
-- Viajes. Salida y regreso, hora local del viaje (sin zona): el día de cada dieta es el del lugar.
-- municipio_distinto y mas_de_nueve_meses: lo que decide si las dietas están exentas.
-- ---------------------------------------------------------------------------------------------
create table public.viajes (
  id uuid primary key default gen_random_uuid(),
  solicitante_id uuid not null default auth.uid()
    constraint viajes_solicitante_id_fkey references public.usuarios (id),
  destino_municipio text collate "es-x-icu" not null
    constraint viajes_destino_municipio_check check (char_length(destino_municipio) between 2 and 100),
  destino_pais text not null default 'ES'
    constraint viajes_destino_pais_check check (destino_pais ~ '^[A-Z]{2}$'),
  motivo text not null
    constraint viajes_motivo_check check (char_length(motivo) between 3 and 500),
  salida timestamp(0) not null,
  regreso timestamp(0) not null,
  municipio_distinto boolean not null default true,
  mas_de_nueve_meses boolean not null default false,
  notas text
    constraint viajes_notas_check check (char_length(notas) <= 2000),
  creado_en timestamptz not null default now(),
  actualizado_en timestamptz not null default now(),
  version integer not null default 1,
  constraint viajes_regreso_check check (regreso >= salida)
);
create index viajes_solicitante_salida_idx on public.viajes (solicitante_id, salida desc);
create index viajes_salida_idx on public.viajes (salida desc);

-- Un viaje con gastos enviados o aprobados no cambia lo que decide sus dietas; unas dietas o unos
-- kilometrajes en borrador fuera de las fechas nuevas tampoco se quedan fuera sin decirlo.
create function interno.viajes_validar() returns trigger language plpgsql security definer set search_path = '' as $$
declare
  v_fuera text;
begin
  new.destino_municipio := btrim(new.destino_municipio);
  new.motivo := btrim(new.motivo);
  new.destino_pais := upper(btrim(new.destino_pais));
  if tg_op = 'UPDATE' then
    new.solicitante_id := old.solicitante_id;
    if (new.salida, new.regreso, new.destino_municipio, new.destino_pais, new.municipio_distinto,
        new.mas_de_nueve_meses) is distinct from
       (old.salida, old.regreso, old.destino_municipio, old.destino_pais, old.municipio_distinto,
        old.mas_de_nueve_meses)
       and exists (select 1 from public.gastos g where g.viaje_id = new.id
                    and g.estado in ('pendiente', 'aprobado', 'pagado')) then
      raise exception using errcode = 'OFINV', detail = 'salida',
        message = 'El viaje tiene gastos enviados, aprobados o pagados: sus fechas, su destino y lo que decide la exención ya no se pueden cambiar.';
    end if;
    -- Which ones, by folio: the trip's page lists them.
    select string_agg(g.folio, ', ' order by g.fecha_gasto, g.folio) into v_fuera
      from public.gastos g where g.viaje_id = new.id and g.clase in ('dieta', 'kilometraje')
       and (g.fecha_gasto < new.salida::date or g.fecha_gasto > new.regreso::date);
    if v_fuera is not null then
      raise exception using errcode = 'OFINV', detail = 'regreso',
        message = 'Hay dietas o kilometrajes del viaje fuera de las fechas nuevas (' || v_fuera
          || '): cámbielos o elimínelos antes.';
    end if;
    if exists (select 1 from public.gastos g where g.viaje_id = new.id and g.clase = 'dieta' and g.dieta_pernocta
                and g.fecha_gasto = new.regreso::date) then
      raise exception using errcode = 'OFINV', detail = 'regreso',
        message = 'Regreso: la dieta del ' || to_char(new.regreso, 'DD/MM/YYYY') || ' es con pernocta, y ese sería'
          || ' el día del regreso; quítele antes la pernocta.';
    end if;
    if new.destino_pais = 'ES' and exists (select 1 from public.gastos g where g.viaje_id = new.id
                                             and g.clase = 'dieta' and g.dieta_lugar = 'extranjero') then
      raise exception using errcode = 'OFINV', detail = 'destino_pais',
        message = 'País de destino: el viaje tiene dietas en el extranjero; cámbielas a España antes.';
    end if;
  end if;
  -- Fechas con sentido, como las de un gasto, cuando las escribe una persona (las cargas del
  -- propietario no tienen JWT): un viaje de hace más de un año no podría llevar gastos.
  if (select auth.uid()) is not null
     and (tg_op = 'INSERT' or (new.salida, new.regreso) is distinct from (old.salida, old.regreso)) then
    if new.salida::date < interno.hoy() - 365 then
      raise exception using errcode = 'OFINV', detail = 'salida',
        message = 'Salida: no puede ser de hace más de un año (sus gastos ya no se podrían anotar).';
    end if;
    if new.salida::date > interno.hoy() + 365 then
      raise exception using errcode = 'OFINV', detail = 'salida',
        message = 'Salida: como mucho dentro de un año.';
    end if;
    if new.regreso::date > new.salida::date + 365 then
      raise exception using errcode = 'OFINV', detail = 'regreso',
        message = 'Regreso: un viaje dura como mucho un año; para uno más largo, anote varios.';
    end if;
  end if;
  if new.regreso < new.salida then
    raise exception using errcode = 'OFINV', detail = 'regreso',
      message = 'Regreso: no puede ser anterior a la salida.';
  end if;
  return new;
end
$$;
create trigger viajes_validar before insert or update on public.viajes for each row execute function interno.viajes_validar();
select interno.tabla_con_historial('viajes');

-- ---------------------------------------------------------------------------------------------
-- Los gastos: su viaje y su clase, con lo propio del kilometraje y de la dieta.
-- ---------------------------------------------------------------------------------------------
alter table public.gastos
  add column viaje_id uuid
    constraint gastos_viaje_id_fkey references public.viajes (id),
  add column clase text not null default 'ordinario'
    constraint gastos_clase_check check (clase in ('ordinario', 'kilometraje', 'dieta')),
  add column km_origen text
    constraint gastos_km_origen_check check (char_length(km_origen) between 2 and 100),
  add column km_destino text
    constraint gastos_km_destino_check check (char_length(km_destino) between 2 and 100),
  add column km numeric(8, 1)
    constraint gastos_km_check check (km > 0 and km <= 20000),
  add column km_ida_vuelta boolean not null default false,
  add column km_tarifa numeric(5, 2)
    constraint gastos_km_tarifa_check check (km_tarifa > 0),
  add column dieta_pernocta boolean not null default false,
  add column dieta_lugar text
    constraint gastos_dieta_lugar_check check (dieta_lugar in ('espana', 'extranjero')),
  -- Su IRPF fijado al aprobarlo, como lo que lleva a los libros (interno.fijar_al_aprobar).
  add column irpf_exento_al_aprobar numeric(14, 2),
  add column irpf_sujeto_al_aprobar numeric(14, 2),
  add column irpf_explicacion_al_aprobar text,
  add constraint gastos_kilometraje_check
    check (clase <> 'kilometraje' or (km is not null and km_tarifa is not null and km_origen is not null
                                      and km_destino is not null)),
  add constraint gastos_dieta_check check (clase <> 'dieta' or (viaje_id is not null and dieta_lugar is not null));
create index gastos_viaje_id_idx on public.gastos (viaje_id) where viaje_id is not null;
-- Una dieta por persona y día (interno.gastos_clase lo dice antes, con el viaje).
create unique index gastos_dieta_dia_key on public.gastos (solicitante_id, fecha_gasto) where clase = 'dieta';

grant insert (viaje_id, clase, km_origen, km_destino, km, km_ida_vuelta, dieta_pernocta, dieta_lugar),
      update (viaje_id, clase, km_origen, km_destino, km, km_ida_vuelta, dieta_pernocta, dieta_lugar)
  on public.gastos to authenticated;

-- Ver: como los gastos. Un administrador, todos; el solicitante, los suyos; quien aprueba a su
-- solicitante (interno.solicitantes_a_cargo) y quien ve alguno de sus gastos enviados (la RLS de
-- gastos decide cuáles). Crear, cambiar y eliminar: el solicitante o un administrador.
alter table public.viajes enable row level security;
create policy viajes_select on public.viajes for select to authenticated
  using (
    (select interno.rol_actual()) is not null
    and (
      (select interno.es_admin())
      or solicitante_id = (select auth.uid())
      or solicitante_id = any ((select interno.solicitantes_a_cargo())::uuid[])
      or exists (select 1 from public.gastos g where g.viaje_id = viajes.id and g.estado <> 'borrador')
    )
  );
select interno.politicas_de_la_persona('viajes', 'solicitante_id');
revoke all on public.viajes from public, anon, authenticated;
grant select, delete on public.viajes to authenticated;
grant insert (id, solicitante_id, destino_municipio, destino_pais, motivo, salida, regreso, municipio_distinto,
              mas_de_nueve_meses, notas),
      update (destino_municipio, destino_pais, motivo, salida, regreso, municipio_distinto, mas_de_nueve_meses, notas)
  on public.viajes to authenticated;
grant all on public.viajes to service_role;

-- gastos_clase (antes que gastos_validar y gastos_validar_fiscal, por orden alfabético): el viaje
-- ha de ser del solicitante; el kilometraje y la dieta reciben aquí su importe, exacto en numeric,
-- y van sin justificante ni IVA. La tarifa por km se toma de la empresa al escribir los km (se
-- guarda: una tarifa nueva no cambia los gastos ya escritos); la dieta, del importe diario de la
-- empresa al escribirla. Una transición del flujo no cambia nada de esto.
create function interno.gastos_clase() returns trigger language plpgsql security definer set search_path = '' as $$
declare
  v record;
  e public.empresa;
  v_importe numeric;
  v_rehacer boolean;
  v_otro uuid;
begin
  if new.viaje_id is not null then
    select * into v from public.viajes where id = new.viaje_id;
    if not found then
      raise exception using errcode = 'OFINV', detail = 'viaje_id', message = 'Elija un viaje de la lista.';
    end if;
    if v.solicitante_id <> new.solicitante_id then
      raise exception using errcode = 'OFINV', detail = 'viaje_id',
        message = 'Viaje: es de otra persona; elija uno de los viajes del solicitante del gasto.';
    end if;
  end if;

  if new.clase = 'ordinario' then
    new.km_origen := null;
    new.km_destino := null;
    new.km := null;
    new.km_ida_vuelta := false;
    new.km_tarifa := null;
    new.dieta_pernocta := false;
    new.dieta_lugar := null;
    return new;
  end if;

  -- Lo que se debe a quien viaja: se le reembolsa (cuenta 465, remesa a su IBAN), nunca lo pagó
  -- la empresa ni un proveedor. El formulario no lo pregunta: sin método, «efectivo». Un gasto
  -- ordinario que pagó la empresa (su tarjeta, su caja, una transferencia) no se convierte: el
  -- cargo perdería su gasto y la persona cobraría un reembolso que nadie eligió.
  if new.metodo_pago is null then
    new.metodo_pago := 'efectivo';
  end if;
  if tg_op = 'UPDATE' and old.clase = 'ordinario'
     and old.metodo_pago not in ('efectivo', 'tarjeta_credito', 'tarjeta_debito')
     and new.metodo_pago = old.metodo_pago then
    raise exception using errcode = 'OFINV', detail = 'clase',
      message = 'Clase: un gasto que pagó la empresa no se convierte en kilometraje ni en dieta, que se reembolsan a quien viaja; añádalo aparte.';
  end if;
  if new.metodo_pago not in ('efectivo', 'tarjeta_credito', 'tarjeta_debito')
     and (tg_op = 'INSERT' or (new.clase, new.metodo_pago) is distinct from (old.clase, old.metodo_pago)) then
    raise exception using errcode = 'OFINV', detail = 'metodo_pago',
      message = 'Método de pago: el kilometraje y las dietas se reembolsan a quien viaja; elija Efectivo, Tarjeta de crédito o Tarjeta de débito.';
  end if;
  select * into e from public.empresa limit 1;
  new.tipo_documento := 'sin_justificante';
  new.inversion_sujeto_pasivo := false;
  new.desglose_iva := '[]'::jsonb;
  new.otros_no_sujetos := 0;
  new.proveedor_id := null;
  new.emisor_nif := null;
  new.emisor_nombre := null;
  new.numero_factura := null;

  if new.clase = 'kilometraje' then
    new.km_origen := nullif(btrim(new.km_origen), '');
    new.km_destino := nullif(btrim(new.km_destino), '');
    new.dieta_pernocta := false;
    new.dieta_lugar := null;
    if new.km_origen is null then
      raise exception using errcode = 'OFINV', detail = 'km_origen', message = 'Escriba el origen del trayecto.';
    end if;
    if new.km_destino is null then
      raise exception using errcode = 'OFINV', detail = 'km_destino', message = 'Escriba el destino del trayecto.';
    end if;
    if new.km is null then
      raise exception using errcode = 'OFINV', detail = 'km', message = 'Escriba los kilómetros del trayecto.';
    end if;
    -- En un viaje, de uno de sus días (como la dieta); los que ya estaban siguen su flujo.
    if new.viaje_id is not null then
      if (new.fecha_gasto < v.salida::date or new.fecha_gasto > v.regreso::date)
         and (tg_op = 'INSERT'
              or (new.clase, new.viaje_id, new.fecha_gasto) is distinct from (old.clase, old.viaje_id, old.fecha_gasto)) then
        raise exception using errcode = 'OFINV', detail = 'fecha_gasto',
          message = 'Fecha: un kilometraje del viaje es de un día del viaje, del ' || to_char(v.salida, 'DD/MM/YYYY')
            || ' al ' || to_char(v.regreso, 'DD/MM/YYYY') || '.';
      end if;
    end if;
    v_rehacer := tg_op = 'INSERT' or new.km_tarifa is null
      or (new.clase, new.km, new.km_ida_vuelta) is distinct from (old.clase, old.km, old.km_ida_vuelta)
      or new.importe is null;
    if v_rehacer then
      new.km_tarifa := e.tarifa_km;
    end if;
    new.importe := round(new.km * case when new.km_ida_vuelta then 2 else 1 end * new.km_tarifa, 2);
    return new;
  end if;

  -- Dieta: de un día del viaje; sin pernocta si el viaje vuelve el mismo día que sale.
  new.km_origen := null;
  new.km_destino := null;
  new.km := null;
  new.km_ida_vuelta := false;
  new.km_tarifa := null;
  if new.viaje_id is null then
    raise exception using errcode = 'OFINV', detail = 'viaje_id',
      message = 'Viaje: una dieta es de un día de un viaje; elija el viaje.';
  end if;
  if new.fecha_gasto < v.salida::date or new.fecha_gasto > v.regreso::date then
    raise exception using errcode = 'OFINV', detail = 'fecha_gasto',
      message = 'Fecha: una dieta es de un día del viaje, del ' || to_char(v.salida, 'DD/MM/YYYY') || ' al '
        || to_char(v.regreso, 'DD/MM/YYYY') || '.';
  end if;
  -- Una dieta por persona y día, también entre dos viajes del mismo día: el límite exento del
  -- IRPF es diario, no por viaje.
  select g.viaje_id into v_otro from public.gastos g
   where g.solicitante_id = new.solicitante_id and g.clase = 'dieta' and g.fecha_gasto = new.fecha_gasto
     and g.id <> new.id;
  if found then
    raise exception using errcode = 'OFINV', detail = 'fecha_gasto',
      message = case when v_otro = new.viaje_id
        then 'Fecha: el viaje ya tiene una dieta del ' || to_char(new.fecha_gasto, 'DD/MM/YYYY')
          || ': elija otro día del viaje, o cambie esa dieta (con o sin pernocta) en vez de añadir otra.'
        else 'Fecha: ya hay una dieta suya del ' || to_char(new.fecha_gasto, 'DD/MM/YYYY') || ' en otro viaje ('
          || interno.titulo_viaje_de(v_otro) || '): cada día lleva una sola dieta.' end;
  end if;
  new.dieta_lugar := coalesce(new.dieta_lugar, case when v.destino_pais = 'ES' then 'espana' else 'extranjero' end);
  -- Lo que decide su límite exento, dicho por quien la escribe: la noche del regreso se duerme en
  -- casa, y un viaje a España no tiene días en el extranjero. Solo al escribirlo (no al aprobarla).
  if tg_op = 'INSERT' or (new.clase, new.dieta_pernocta, new.dieta_lugar, new.viaje_id, new.fecha_gasto)
                         is distinct from (old.clase, old.dieta_pernocta, old.dieta_lugar, old.viaje_id, old.fecha_gasto) then
    if new.dieta_pernocta and new.fecha_gasto = v.regreso::date then
      raise exception using errcode = 'OFINV', detail = 'dieta_pernocta',
        message = 'Con pernocta: el ' || to_char(v.regreso, 'DD/MM/YYYY') || ' es el día del regreso, y esa noche'
          || ' no se duerme fuera; desmárquelo (la dieta de ese día es sin pernocta).';
    end if;
    if new.dieta_lugar = 'extranjero' and v.destino_pais = 'ES' then
      raise exception using errcode = 'OFINV', detail = 'dieta_lugar',
        message = 'Dónde: el viaje es a España; una dieta en el extranjero es de un viaje al extranjero.';
    end if;
  end if;
  v_importe := case
    when new.dieta_lugar = 'espana' and not new.dieta_pernocta then e.dieta_espana_sin_pernocta
    when new.dieta_lugar = 'espana' then e.dieta_espana_con_pernocta
    when not new.dieta_pernocta then e.dieta_extranjero_sin_pernocta
    else e.dieta_extranjero_con_pernocta end;
  if tg_op = 'INSERT' or new.importe is null
     or (new.clase, new.dieta_pernocta, new.dieta_lugar, new.viaje_id, new.fecha_gasto, new.importe)
        is distinct from (old.clase, old.dieta_pernocta, old.dieta_lugar, old.viaje_id, old.fecha_gasto, old.importe) then
    new.importe := v_importe;
  end if;
  return new;
end
$$;
create trigger gastos_clase before insert or update on public.gastos for each row execute function interno.gastos_clase();

-- ---------------------------------------------------------------------------------------------
-- La parte exenta y la sujeta de un kilometraje o una dieta, y por qué (null en un ordinario).
-- El kilometraje: exento hasta km × el límite por km en la fecha (la locomoción no pide otro
-- municipio). La dieta: hasta el límite del día según pernocta y lugar, si el viaje es a otro
-- municipio que el del centro de trabajo y el de la residencia y no pasa de nueve meses.
-- ---------------------------------------------------------------------------------------------
create type interno.irpf as (exento numeric(14, 2), sujeto numeric(14, 2), explicacion text);

-- 230 → «230», 12.5 → «12,5».
create function interno.cantidad(p_valor numeric) returns text language sql immutable set search_path = ''
as $$ select replace(trim_scale(p_valor)::text, '.', ',') $$;

create function interno.irpf(g public.gastos) returns interno.irpf
language plpgsql stable security definer set search_path = '' as $$
declare
  v record;
  v_km numeric;
  v_limite numeric;
  v_exento numeric;
  v_que text;
  v_no text;
begin
  if g.irpf_sujeto_al_aprobar is not null then
    return row(g.irpf_exento_al_aprobar, g.irpf_sujeto_al_aprobar, g.irpf_explicacion_al_aprobar)::interno.irpf;
  end if;
  if g.clase = 'kilometraje' then
    v_km := g.km * case when g.km_ida_vuelta then 2 else 1 end;
    v_que := interno.cantidad(v_km) || ' km a ' || interno.euros(g.km_tarifa) || ' €/km';
    v_limite := interno.limite_exento('km', g.fecha_gasto);
    if v_limite is null then
      return row(0, g.importe, v_que || ': sin límite exento en vigor el ' || to_char(g.fecha_gasto, 'DD/MM/YYYY')
        || ', 0,00 € exentos, ' || interno.euros(g.importe) || ' € sujetos a IRPF')::interno.irpf;
    end if;
    v_exento := least(g.importe, round(v_km * v_limite, 2));
    if g.km_tarifa > v_limite then
      v_que := v_que || ' (exentos hasta ' || interno.euros(v_limite) || ' €/km)';
    end if;
    return row(v_exento, g.importe - v_exento, v_que || ': ' || interno.euros(v_exento) || ' € exentos, '
      || interno.euros(g.importe - v_exento) || ' € sujetos a IRPF')::interno.irpf;
  end if;
  if g.clase <> 'dieta' then
    return null;
  end if;
  select * into v from public.viajes where id = g.viaje_id;
  v_que := case when g.dieta_pernocta then 'Con' else 'Sin' end || ' pernocta '
    || case when g.dieta_lugar = 'extranjero' then 'en el extranjero' else 'en España' end;
  v_no := case
    when not v.municipio_distinto then 'viaje al municipio del centro de trabajo o de la residencia'
    when v.mas_de_nueve_meses or v.regreso > v.salida + interval '9 months'
      then 'más de nueve meses seguidos en el mismo municipio'
  end;
  v_limite := interno.limite_exento('dieta_' || coalesce(g.dieta_lugar, 'espana') || '_'
    || case when g.dieta_pernocta then 'con' else 'sin' end || '_pernocta', g.fecha_gasto);
  if v_no is null and v_limite is null then
    v_no := 'sin límite exento en vigor el ' || to_char(g.fecha_gasto, 'DD/MM/YYYY');
  end if;
  if v_no is not null then
    return row(0, g.importe, v_que || ': exención no aplicable (' || v_no || '), 0,00 € exentos, '
      || interno.euros(g.importe) || ' € sujetos a IRPF')::interno.irpf;
  end if;
  v_exento := least(g.importe, v_limite);
  return row(v_exento, g.importe - v_exento, v_que || ': ' || interno.euros(v_exento) || ' € exentos, '
    || interno.euros(g.importe - v_exento) || ' € sujetos a IRPF')::interno.irpf;
end
$$;

-- El nombre de un viaje, como lo dicen las listas y los selectores: «Bilbao, 03/11/2026».
create function interno.titulo_viaje(p_municipio text, p_pais text, p_salida timestamp) returns text
language sql immutable set search_path = '' as $$
  select p_municipio || case when p_pais <> 'ES' then ' (' || p_pais || ')' else '' end
    || ', ' || to_char(p_salida, 'DD/MM/YYYY')
$$;

-- El título del viaje de un gasto, para quien ve el gasto (aunque no vea el viaje por sí mismo).
create function interno.titulo_viaje_de(p_viaje_id uuid) returns text
language sql stable security definer set search_path = '' as $$
  select interno.titulo_viaje(v.destino_municipio, v.destino_pais, v.salida) from public.viajes v where v.id = p_viaje_id
$$;

grant usage on type interno.irpf to authenticated, service_role;
revoke all on function interno.irpf(public.gastos), interno.limite_exento(text, date), interno.cantidad(numeric),
  interno.titulo_viaje(text, text, timestamp), interno.titulo_viaje_de(uuid) from public, anon;
grant execute on function interno.irpf(public.gastos), interno.limite_exento(text, date), interno.cantidad(numeric),
  interno.titulo_viaje(text, text, timestamp), interno.titulo_viaje_de(uuid) to authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- Qué incumple un gasto de su política (20261219000001_politicas), en frases. Como propietario:
-- los totales del día y del mes suman gastos del mismo solicitante que quien envía puede no ver
-- (lo enviado por un administrador en su nombre). Cuentan los pendientes, aprobados y pagados;
-- no los borradores ni los rechazados. La antigüedad se cuenta en días de la oficina (Madrid), sea
-- cual sea la zona de la sesión.
-- Un kilometraje o una dieta: sin una política propia de su categoría, la que marcan las normas
-- del IRPF: uno sin exención ninguna (un viaje al propio municipio, más de nueve meses) se envía
-- con un motivo. Pagar por encima del límite exento es decisión de la empresa (/empresa): su
-- parte sujeta se ve en el gasto y en el informe, no pide motivo. Y no piden justificante.
-- ---------------------------------------------------------------------------------------------
create function interno.incumplimientos_politica(g public.gastos) returns text[]
language plpgsql stable security definer set search_path = '' set timezone to 'Europe/Madrid' as $$
declare
  p public.politicas_gasto;
  i interno.irpf;
  v_suma numeric;
  v_dias integer;
  v_fuera text[] := '{}';
begin
  select * into p from public.politicas_gasto x
   where x.categoria = g.categoria
     and (x.departamento_id = g.departamento_id or x.departamento_id is null)
   order by x.departamento_id nulls last
   limit 1;
  if not found then
    if g.clase in ('kilometraje', 'dieta') then
      i := interno.irpf(g);
      if i.exento = 0 and i.sujeto > 0 then
        v_fuera := v_fuera || ('Todo sujeto a IRPF (' || i.explicacion || ').');
      end if;
    end if;
    return v_fuera;
  end if;
  if p.maximo_por_gasto is not null and g.importe > p.maximo_por_gasto then
    v_fuera := v_fuera || (interno.euros(g.importe) || ' € en un gasto; el máximo por gasto es '
      || interno.euros(p.maximo_por_gasto) || ' € (' || interno.euros(g.importe - p.maximo_por_gasto) || ' € más).');
  end if;
  if p.maximo_por_dia is not null then
    select g.importe + coalesce(sum(o.importe), 0) into v_suma from public.gastos o
     where o.solicitante_id = g.solicitante_id and o.categoria = g.categoria and o.fecha_gasto = g.fecha_gasto
       and o.estado in ('pendiente', 'aprobado', 'pagado') and o.id <> g.id;
    if v_suma > p.maximo_por_dia then
      v_fuera := v_fuera || (interno.euros(v_suma) || ' € de esta categoría el ' || to_char(g.fecha_gasto, 'DD/MM/YYYY')
        || ' con este gasto; el máximo por día es ' || interno.euros(p.maximo_por_dia) || ' € ('
        || interno.euros(v_suma - p.maximo_por_dia) || ' € más).');
    end if;
  end if;
  if p.maximo_por_mes is not null then
    select g.importe + coalesce(sum(o.importe), 0) into v_suma from public.gastos o
     where o.solicitante_id = g.solicitante_id and o.categoria = g.categoria
       and o.fecha_gasto >= date_trunc('month', g.fecha_gasto)::date
       and o.fecha_gasto < (date_trunc('month', g.fecha_gasto) + interval '1 month')::date
       and o.estado in ('pendiente', 'aprobado', 'pagado') and o.id <> g.id;
    if v_suma > p.maximo_por_mes then
      v_fuera := v_fuera || (interno.euros(v_suma) || ' € de esta categoría en ' || interno.mes_y_anio(g.fecha_gasto)
        || ' con este gasto; el máximo por mes es ' || interno.euros(p.maximo_por_mes) || ' € ('
        || interno.euros(v_suma - p.maximo_por_mes) || ' € más).');
    end if;
  end if;
  if p.justificante_desde is not null and g.importe >= p.justificante_desde and g.clase = 'ordinario'
     and not exists (select 1 from public.justificantes j where j.gasto_id = g.id) then
    v_fuera := v_fuera || ('Sin justificante: en esta categoría se pide desde ' || interno.euros(p.justificante_desde) || ' €.');
  end if;
  v_dias := current_date - g.fecha_gasto;
  if p.antiguedad_maxima is not null and v_dias > p.antiguedad_maxima then
    v_fuera := v_fuera || ('El gasto tiene ' || v_dias || ' días; se admiten hasta '
      || p.antiguedad_maxima || ' días desde la fecha del gasto.');
  end if;
  return v_fuera;
end
$$;
revoke all on function interno.incumplimientos_politica(public.gastos) from public, anon, authenticated;

-- ---------------------------------------------------------------------------------------------
-- Las vistas: gastos_vista con su viaje y su IRPF; los viajes con sus totales; el informe de IRPF
-- (una fila por kilometraje o dieta aprobado o pagado). Las crea interno.crear_gastos_vista
-- (20261125000004_rls), aquí, cuando existen todas sus columnas y tablas; y el selector de viaje.
-- ---------------------------------------------------------------------------------------------
select interno.crear_gastos_vista();

-- El selector «Viaje» del gasto: los viajes propios (un administrador, todos).
create view public.viajes_opciones with (security_invoker = true) as
select v.id, interno.titulo_viaje(v.destino_municipio, v.destino_pais, v.salida) as titulo, v.solicitante_id, v.salida
  from public.viajes v
 where v.solicitante_id = (select auth.uid()) or (select interno.es_admin());
revoke all on public.viajes_opciones from public, anon, authenticated;
grant select on public.viajes_opciones to authenticated, service_role;
